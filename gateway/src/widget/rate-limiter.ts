export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
  /**
   * Refused because this window already counts `maxKeys` keys, not because this key used its budget.
   * Refusing (rather than letting new keys through uncounted) keeps the limit a limit under a flood of
   * made-up keys; the flood's keys leave with the window.
   */
  full: boolean;
}

/**
 * A fixed-window counter per key, windows aligned to the clock (every key's window resets at the same
 * moment, so the whole map is dropped then and memory stays bounded by one window's keys, at most
 * `maxKeys`).
 *
 * The counts live in this process: with N gateway instances a key may get up to N x limit per window.
 * That is the intent (a guard against a runaway widget, not billing); a shared count would put the
 * database or broker in the path of every public widget request.
 */
export class FixedWindowRateLimiter {
  private window = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Past this many keys in one window new keys are refused (see RateDecision.full). */
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `key`, unless refused. */
  hit(key: string): RateDecision {
    const now = this.now();
    const window = this.roll(now);
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    const refused = (full: boolean): RateDecision => ({
      allowed: false,
      limit: this.limit,
      remaining: 0,
      retryAfterSeconds,
      full,
    });
    const used = this.counts.get(key);
    if (used === undefined && this.counts.size >= this.maxKeys) return refused(true);
    const count = (used ?? 0) + 1;
    if (count > this.limit) return refused(false);
    this.counts.set(key, count);
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - count,
      retryAfterSeconds,
      full: false,
    };
  }

  /**
   * Gives back one counted request of `key` in this window (a request that turned out not to be what the
   * limit is about); a key back at zero leaves the map, so it takes no room.
   */
  release(key: string): void {
    this.roll(this.now());
    const used = this.counts.get(key);
    if (used === undefined) return;
    if (used <= 1) this.counts.delete(key);
    else this.counts.set(key, used - 1);
  }

  /** Keys counted in the current window. */
  get size(): number {
    this.roll(this.now());
    return this.counts.size;
  }

  private roll(now: number): number {
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    return window;
  }
}
