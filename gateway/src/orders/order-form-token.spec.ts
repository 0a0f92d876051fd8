import { createHmac } from 'node:crypto';
import { issueOrderFormToken, orderFormTokenProblem } from './order-form-token';

const SECRET = 'order-form-token-spec-secret-0123456789abcdef';
const RULE = { minFillMs: 3000, maxAgeMs: 4 * 3_600_000 };
const ISSUED = Date.UTC(2026, 0, 5, 9, 30);

describe('the order form token (minimum fill time)', () => {
  const token = issueOrderFormToken(SECRET, ISSUED);
  const at = (ms: number, t = token) => orderFormTokenProblem(SECRET, t, ISSUED + ms, RULE);

  it('is taken from the minimum fill time after it was issued until its maximum age', () => {
    expect(at(RULE.minFillMs)).toBeNull();
    expect(at(60_000)).toBeNull();
    expect(at(RULE.maxAgeMs)).toBeNull();
  });

  it('is refused sooner than a person fills the form in, and past its age', () => {
    expect(at(0)).toBe('too soon');
    expect(at(RULE.minFillMs - 1)).toBe('too soon');
    // Issued by an instance whose clock is ahead: it waits like a fresh token.
    expect(at(-5000)).toBe('too soon');
    expect(at(RULE.maxAgeMs + 1)).toBe('expired');
  });

  it('with a minimum fill time of 0 still needs a valid token', () => {
    const rule = { ...RULE, minFillMs: 0 };
    expect(orderFormTokenProblem(SECRET, token, ISSUED, rule)).toBeNull();
    expect(orderFormTokenProblem(SECRET, '', ISSUED, rule)).toBe('missing');
    expect(orderFormTokenProblem('another-secret-of-32-characters-or-more', token, ISSUED, rule)).toBe(
      'forged',
    );
  });

  it('refuses a missing, malformed or forged token', () => {
    expect(orderFormTokenProblem(SECRET, undefined, ISSUED + 60_000, RULE)).toBe('missing');
    expect(orderFormTokenProblem(SECRET, null, ISSUED + 60_000, RULE)).toBe('missing');
    expect(at(60_000, '')).toBe('missing');
    expect(at(60_000, 'not a token')).toBe('malformed');
    expect(at(60_000, `${token}x`)).toBe('malformed');
    const [issuedAt, nonce, mac] = token.split('.');
    // An earlier time with the same MAC (to skip the wait), another nonce, another secret's MAC.
    expect(at(60_000, `${Number(issuedAt) - 60_000}.${nonce}.${mac}`)).toBe('forged');
    expect(at(60_000, `${issuedAt}.${'A'.repeat(22)}.${mac}`)).toBe('forged');
    expect(at(60_000, issueOrderFormToken('another-secret-of-32-characters-or-more', ISSUED))).toBe('forged');
    // A plain HMAC of the fields by the same secret (as another use of the secret could make) is no token.
    const plain = createHmac('sha256', SECRET).update(`${issuedAt}.${nonce}`).digest('base64url');
    expect(at(60_000, `${issuedAt}.${nonce}.${plain}`)).toBe('forged');
  });

  it('is a new token each time, even in the same millisecond', () => {
    expect(issueOrderFormToken(SECRET, ISSUED)).not.toBe(issueOrderFormToken(SECRET, ISSUED));
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
  });
});
