import { csrfTokenFor, csrfTokenValid } from './csrf';

describe('CSRF token', () => {
  const secret = 'x'.repeat(40);
  it('is bound to the session token and the secret', () => {
    const t = csrfTokenFor(secret, 'session-a');
    expect(csrfTokenValid(secret, 'session-a', t)).toBe(true);
    expect(csrfTokenValid(secret, 'session-b', t)).toBe(false);
    expect(csrfTokenValid('y'.repeat(40), 'session-a', t)).toBe(false);
    expect(csrfTokenValid(secret, 'session-a', undefined)).toBe(false);
    expect(csrfTokenValid(secret, 'session-a', t.slice(1))).toBe(false);
  });
});
