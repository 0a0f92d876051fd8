import { confirmTokenExpiry, normaliseEmail, subscribeRateLimited } from './subscription-rules';

describe('subscription rules', () => {
  it('stores an address trimmed with its domain lower-cased, the mailbox as typed', () => {
    expect(normaliseEmail('  Jane.Doe@Example.COM ')).toBe('Jane.Doe@example.com');
    expect(normaliseEmail('a@b@C.com')).toBe('a@b@c.com');
    expect(normaliseEmail(' no-at-sign ')).toBe('no-at-sign');
  });

  describe('subscribe rate limits', () => {
    const limits = { perEmail: 3, perIp: 10 };

    it('allows attempts under both limits', () => {
      expect(subscribeRateLimited({ byEmail: 0, byIp: 0 }, limits)).toBe(false);
      expect(subscribeRateLimited({ byEmail: 2, byIp: 9 }, limits)).toBe(false);
    });

    it('refuses the attempt after the address used its attempts', () => {
      expect(subscribeRateLimited({ byEmail: 3, byIp: 0 }, limits)).toBe(true);
    });

    it('refuses the attempt after the IP used its attempts, whatever the address', () => {
      expect(subscribeRateLimited({ byEmail: 0, byIp: 10 }, limits)).toBe(true);
    });
  });

  it('lets a confirmation link live its hours to the millisecond', () => {
    const now = new Date('2026-11-25T10:00:00.000Z');
    expect(confirmTokenExpiry(now, 48).toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(confirmTokenExpiry(now, 0).getTime()).toBe(now.getTime());
  });
});
