import { SEALED_PREFIX, Topics } from '@irp/proto';
import { validateIncoming, validateReply } from './messages';

describe('message validation against the catalogue', () => {
  it('accepts a valid request and reports each problem of an invalid one', () => {
    const valid = {
      username: 'a',
      password: `${SEALED_PREFIX}b`,
      tokens: { sessionHash: 'a'.repeat(64), refreshHash: 'b'.repeat(64) },
    };
    expect(validateIncoming(Topics.UsersAuthenticate, valid)).toEqual({ ok: true, data: valid });
    // A password in clear is not a valid message (issue 34: secrets cross the bus sealed).
    const clear = validateIncoming(Topics.UsersAuthenticate, { ...valid, password: 'b' });
    expect(!clear.ok && clear.reason).toBe(
      'password: a secret crosses the bus sealed for its service, never in clear',
    );
    const bad = validateIncoming(Topics.UsersAuthenticate, { username: '' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toMatch(/username: .*[\s\S]*password: Required/);
  });
  it('validates events', () => {
    expect(validateIncoming(Topics.UserUpserted, { id: 'not-a-uuid' }).ok).toBe(false);
  });
  it('refuses topics that are not catalogued', () => {
    expect(validateIncoming('nope.topic', {})).toEqual({
      ok: false,
      reason: 'topic nope.topic is not in the catalogue',
    });
  });
  it('validates reply envelopes including their data', () => {
    expect(
      validateReply(Topics.UsersPing, { ok: true, data: { service: 'users', instance: '1', at: 'now' } }).ok,
    ).toBe(true);
    expect(validateReply(Topics.UsersPing, { ok: true, data: { service: 1 } }).ok).toBe(false);
    expect(
      validateReply(Topics.UsersPing, { ok: false, error: { code: 'NOT_FOUND', message: 'x' } }).ok,
    ).toBe(true);
    expect(validateReply(Topics.UsersPing, { ok: false, error: { code: 'WHATEVER', message: 'x' } }).ok).toBe(
      false,
    );
  });
});
