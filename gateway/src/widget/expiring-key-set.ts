/**
 * A bounded set of keys that each drop out `ttlMs` after they were (last) added. At most `maxEntries`:
 * adding to a full set drops the entry added longest ago, which is also the one that expires first (one
 * TTL for all). Memory stays bounded whatever is added; a dropped entry only costs a repeated lookup.
 */
export class ExpiringKeySet {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  has(key: string): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(key);
    return false;
  }

  add(key: string): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    // Re-adding moves the key to the end, keeping insertion order = expiry order.
    this.until.delete(key);
    while (this.until.size >= this.maxEntries) {
      const oldest = this.until.keys().next().value;
      if (oldest === undefined) break;
      this.until.delete(oldest);
    }
    this.until.set(key, this.now() + this.ttlMs);
  }

  get size(): number {
    return this.until.size;
  }
}
