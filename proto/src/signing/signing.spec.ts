import { Topics } from '../index';
import { actor, unsignedActor } from '../testing';
import { DEV_ACTOR_SIGNING_SECRET, signActor, verifyActor, withSignedActor } from './index';

describe('signed actors', () => {
  const secret = 'a-test-secret-of-some-length-0123456789';
  const admin = unsignedActor({ username: 'admin', roles: ['Admin'] });
  const now = 1_800_000_000_000;
  const stockId = '00000000-0000-4000-8000-00000000000a';
  const save = { topic: Topics.EmailMarketingSaveSettings, payload: { stockId, settings: { listId: 'a' } } };

  it('accepts an actor signed with the secret until it expires', () => {
    const signed = signActor(admin, secret, save, now, 1000);
    expect(verifyActor(signed, secret, save, now)).toBeNull();
    expect(verifyActor(signed, secret, save, now + 1000)).toBeNull();
    expect(verifyActor(signed, secret, save, now + 1001)).toBe('expired');
  });

  it('refuses a missing proof, another secret, and any altered field', () => {
    const signed = signActor(admin, secret, save, now);
    expect(verifyActor(admin, secret, save, now)).toBe('missing');
    expect(verifyActor(signed, DEV_ACTOR_SIGNING_SECRET, save, now)).toBe('bad');
    expect(verifyActor({ ...signed, roles: ['Admin', 'EditUsers'] }, secret, save, now)).toBe('bad');
    expect(verifyActor({ ...signed, username: 'other' }, secret, save, now)).toBe('bad');
    expect(verifyActor({ ...signed, stockRoles: { [stockId]: ['ViewConfig'] } }, secret, save, now)).toBe(
      'bad',
    );
    // A later expiry is part of what is signed: it cannot be extended.
    const { proof } = signed;
    expect(
      verifyActor({ ...signed, proof: { ...proof, expiresAt: proof.expiresAt + 1 } }, secret, save, now),
    ).toBe('bad');
  });

  it('binds the signature to the topic, the message id and the payload: no replay elsewhere', () => {
    const signed = signActor(admin, secret, save, now);
    // The same actor and payload on another topic,
    expect(verifyActor(signed, secret, { ...save, topic: Topics.EmailMarketingTestSend }, now)).toBe('bad');
    // the same topic with another payload (a field changed, added or taken away),
    const changed = { ...save.payload, settings: { listId: 'an-attackers-list' } };
    expect(verifyActor(signed, secret, { ...save, payload: changed }, now)).toBe('bad');
    expect(verifyActor(signed, secret, { ...save, payload: { ...save.payload, extra: 1 } }, now)).toBe('bad');
    expect(verifyActor(signed, secret, { ...save, payload: { stockId } }, now)).toBe('bad');
    // and another message id: each is refused.
    const { proof } = signed;
    expect(verifyActor({ ...signed, proof: { ...proof, messageId: 'another' } }, secret, save, now)).toBe(
      'bad',
    );
    // Each signing names a message of its own.
    expect(signActor(admin, secret, save, now).proof.messageId).not.toBe(proof.messageId);
  });

  it('checks the payload as it arrives: the actor in it, key order and a JSON round trip do not matter', () => {
    const payload = { actor: admin, stockId, settings: { listId: 'a', apiKey: 'k' } };
    const sent = withSignedActor(Topics.EmailMarketingSaveSettings, payload, secret, now);
    const received = JSON.parse(JSON.stringify(sent)) as typeof sent;
    const reordered = { settings: { apiKey: 'k', listId: 'a' }, stockId, actor: received.actor };
    const topic = Topics.EmailMarketingSaveSettings;
    expect(verifyActor(received.actor, secret, { topic, payload: received }, now)).toBeNull();
    expect(verifyActor(received.actor, secret, { topic, payload: reordered }, now)).toBeNull();
    // A payload without an actor is sent as it is.
    expect(withSignedActor(topic, { stockId }, secret, now)).toEqual({ stockId });
  });

  it('does not depend on the order of the stock roles map', () => {
    const a = '00000000-0000-4000-8000-00000000000a';
    const b = '00000000-0000-4000-8000-00000000000b';
    const signed = signActor(
      { ...admin, stockRoles: { [a]: ['ViewConfig'], [b]: ['Invoicing'] } },
      secret,
      save,
      now,
    );
    const reordered = { ...signed, stockRoles: { [b]: ['Invoicing'], [a]: ['ViewConfig'] } };
    expect(verifyActor(reordered, secret, save, now)).toBeNull();
  });

  it("signs the fixtures' actors with the development secret for no message: a service takes none of them", () => {
    const fixture = actor({ username: 'admin', roles: ['Admin'] });
    expect(verifyActor(fixture, DEV_ACTOR_SIGNING_SECRET, save)).toBe('bad');
  });
});
