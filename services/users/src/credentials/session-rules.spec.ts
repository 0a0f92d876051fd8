import { needsTouch, tokenExpiry } from './session-rules';

describe('session rules', () => {
  const now = Date.parse('2026-11-29T00:00:00.000Z');

  it("ends a token after its time to live, never past the session's absolute end", () => {
    const farEnd = new Date(now + 30 * 24 * 3600 * 1000);
    expect(tokenExpiry(now, 3600, farEnd)).toBe('2026-11-29T01:00:00.000Z');
    const nearEnd = new Date(now + 600 * 1000);
    expect(tokenExpiry(now, 3600, nearEnd)).toBe('2026-11-29T00:10:00.000Z');
  });

  it('writes the last-seen time again only when it is more than a minute old', () => {
    expect(needsTouch(new Date(now - 60_000), now)).toBe(false);
    expect(needsTouch(new Date(now - 60_001), now)).toBe(true);
  });
});
