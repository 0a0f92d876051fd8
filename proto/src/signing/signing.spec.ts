import { actor, unsignedActor } from '../testing';
import { DEV_ACTOR_SIGNING_SECRET, signActor, verifyActor } from './index';

describe('signed actors', () => {
  const secret = 'a-test-secret-of-some-length-0123456789';
  const admin = unsignedActor({ username: 'admin', roles: ['Admin'] });
  const now = 1_800_000_000_000;

  it('accepts an actor signed with the secret until it expires', () => {
    const signed = signActor(admin, secret, now, 1000);
    expect(verifyActor(signed, secret, now)).toBeNull();
    expect(verifyActor(signed, secret, now + 1000)).toBeNull();
    expect(verifyActor(signed, secret, now + 1001)).toBe('expired');
  });

  it('refuses a missing proof, another secret, and any altered field', () => {
    const signed = signActor(admin, secret, now);
    expect(verifyActor(admin, secret, now)).toBe('missing');
    expect(verifyActor(signed, DEV_ACTOR_SIGNING_SECRET, now)).toBe('bad');
    expect(verifyActor({ ...signed, roles: ['Admin', 'EditUsers'] }, secret, now)).toBe('bad');
    expect(verifyActor({ ...signed, username: 'other' }, secret, now)).toBe('bad');
    const stockId = '00000000-0000-4000-8000-00000000000a';
    expect(verifyActor({ ...signed, stockRoles: { [stockId]: ['ViewConfig'] } }, secret, now)).toBe('bad');
    // A later expiry is part of what is signed: it cannot be extended.
    expect(
      verifyActor(
        { ...signed, proof: { ...signed.proof, expiresAt: signed.proof.expiresAt + 1 } },
        secret,
        now,
      ),
    ).toBe('bad');
  });

  it('does not depend on the order of the stock roles map', () => {
    const a = '00000000-0000-4000-8000-00000000000a';
    const b = '00000000-0000-4000-8000-00000000000b';
    const signed = signActor(
      { ...admin, stockRoles: { [a]: ['ViewConfig'], [b]: ['Invoicing'] } },
      secret,
      now,
    );
    const reordered = { ...signed, stockRoles: { [b]: ['Invoicing'], [a]: ['ViewConfig'] } };
    expect(verifyActor(reordered, secret, now)).toBeNull();
  });

  it("signs the fixtures' actors with the development secret", () => {
    expect(verifyActor(actor({ username: 'admin', roles: ['Admin'] }), DEV_ACTOR_SIGNING_SECRET)).toBeNull();
  });
});
