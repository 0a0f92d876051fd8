export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
}

/**
 * A fixed-window counter per key, windows aligned to the clock (every key's window resets at the same
 * moment, so the whole map is dropped then and memory stays bounded by one window's keys).
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
    /** Past this many keys in one window new keys are let through uncounted rather than grow memory. */
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): RateDecision {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    const used = this.counts.get(key);
    if (used === undefined && this.counts.size >= this.maxKeys) {
      return { allowed: true, limit: this.limit, remaining: this.limit - 1, retryAfterSeconds };
    }
    const count = (used ?? 0) + 1;
    if (count > this.limit) return { allowed: false, limit: this.limit, remaining: 0, retryAfterSeconds };
    this.counts.set(key, count);
    return { allowed: true, limit: this.limit, remaining: this.limit - count, retryAfterSeconds };
  }
}
