/** Requests in flight at once to a vendor when its config does not say. */
export const DEFAULT_MAX_CONCURRENT = 5;

/** Per vendor: at most `maxConcurrent` in flight and `perMinute` started in any rolling minute. */
export class VendorLimiter {
  private active = 0;
  private readonly started: number[] = [];
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    public maxConcurrent: number,
    public perMinute: number | undefined,
  ) {}

  acquire(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.pump();
    });
  }

  release(): void {
    this.active--;
    this.pump();
  }

  private pump(): void {
    const now = Date.now();
    while (this.started.length && this.started[0] <= now - 60_000) this.started.shift();
    while (this.waiting.length && this.active < this.maxConcurrent) {
      if (this.perMinute !== undefined && this.started.length >= this.perMinute) {
        if (!this.timer) {
          const wait = this.started[0] + 60_000 - now;
          this.timer = setTimeout(
            () => {
              this.timer = undefined;
              this.pump();
            },
            Math.max(wait, 1),
          );
          this.timer.unref?.();
        }
        return;
      }
      this.active++;
      this.started.push(now);
      this.waiting.shift()!();
    }
  }
}

const limiters = new Map<string, VendorLimiter>();

export function limiterFor(config: {
  vendor: string;
  maxConcurrent?: number;
  perMinute?: number;
}): VendorLimiter {
  const maxConcurrent = config.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
  let limiter = limiters.get(config.vendor);
  if (!limiter) {
    limiter = new VendorLimiter(maxConcurrent, config.perMinute);
    limiters.set(config.vendor, limiter);
  } else {
    // The latest configuration of a vendor wins (its clients are rebuilt when settings change).
    limiter.maxConcurrent = maxConcurrent;
    limiter.perMinute = config.perMinute;
  }
  return limiter;
}
