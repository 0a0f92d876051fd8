import { FixedWindowRateLimiter } from './rate-limiter';

describe('FixedWindowRateLimiter', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 60_000 * 1000)); // the start of a window

  it('allows `limit` requests per key per window, then refuses with the seconds left', () => {
    const limiter = new FixedWindowRateLimiter(3, 60_000, 100, clock);
    expect([1, 2, 3].map(() => limiter.hit('k').allowed)).toEqual([true, true, true]);
    now += 15_500;
    const refused = limiter.hit('k');
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 45, full: false });
  });

  it('counts each key on its own', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000, 100, clock);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(false);
    expect(limiter.hit('b')).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('starts again in the next window', () => {
    const limiter = new FixedWindowRateLimiter(2, 60_000, 100, clock);
    limiter.hit('k');
    expect(limiter.hit('k').remaining).toBe(0);
    expect(limiter.hit('k').allowed).toBe(false);
    now += 60_000;
    expect(limiter.hit('k')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('never says retry after 0 seconds', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000, 100, clock);
    now += 59_999;
    limiter.hit('k');
    expect(limiter.hit('k').retryAfterSeconds).toBe(1);
  });

  it('refuses new keys with full: true once a window holds maxKeys keys, until the next window', () => {
    const limiter = new FixedWindowRateLimiter(5, 60_000, 2, clock);
    limiter.hit('a');
    limiter.hit('b');
    expect(limiter.hit('c')).toMatchObject({ allowed: false, full: true, remaining: 0 });
    expect(limiter.hit('c').allowed).toBe(false);
    // Keys already counted keep their budget.
    expect(limiter.hit('a')).toMatchObject({ allowed: true, full: false });
    expect(limiter.size).toBe(2);
    now += 60_000;
    expect(limiter.hit('c')).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('gives back a counted request, and forgets a key back at zero', () => {
    const limiter = new FixedWindowRateLimiter(2, 60_000, 1, clock);
    limiter.hit('a');
    limiter.hit('a');
    expect(limiter.hit('a').allowed).toBe(false);
    limiter.release('a');
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 0 });
    limiter.release('a');
    limiter.release('a');
    expect(limiter.size).toBe(0);
    // The slot is free again for another key.
    expect(limiter.hit('b').allowed).toBe(true);
    limiter.release('nobody');
    expect(limiter.size).toBe(1);
  });
});
