/**
 * The Xero Accounting API's limits per tenant (vendor-apis.md): requests open at once, requests in a rolling
 * minute and in a rolling day. A request beyond one is refused (429) and not counted; the clock is the
 * stand-in's, so a test moves past a minute without waiting one.
 */

export interface RateLimits {
  /** Requests one tenant may have open at once (Xero: 5). */
  concurrent: number;
  /** Requests in any 60 seconds (Xero: 60). */
  perMinute: number;
  /** Requests in any 24 hours (Xero: 5,000). */
  perDay: number;
}

export const XERO_LIMITS: RateLimits = { concurrent: 5, perMinute: 60, perDay: 5000 };

/** Which limit refused a request: Xero's X-Rate-Limit-Problem. */
export type LimitProblem = 'concurrent' | 'minute' | 'day';

interface Remaining {
  /** Requests left in the rolling minute and day after this one (X-MinLimit-Remaining, X-DayLimit-Remaining). */
  minuteRemaining: number;
  dayRemaining: number;
}

export type Admission =
  | ({ admitted: true; release(): void } & Remaining)
  | ({ admitted: false; problem: LimitProblem; retryAfterSeconds: number } & Remaining);

export interface TenantUsage {
  tenantId: string;
  open: number;
  lastMinute: number;
  lastDay: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Tenant {
  open: number;
  /** Times of the admitted requests of the last day, ascending. */
  calls: number[];
  /** Index of the first call still within the day. */
  first: number;
}

export class TenantLimits {
  private readonly tenants = new Map<string, Tenant>();

  constructor(
    readonly limits: RateLimits,
    private readonly now: () => number,
  ) {}

  /** Admits a request (counted, open until release()) or refuses it with the limit and a Retry-After. */
  admit(tenantId: string): Admission {
    const tenant = this.tenant(tenantId);
    const now = this.now();
    this.prune(tenant, now);
    const inDay = tenant.calls.length - tenant.first;
    const minuteStart = this.firstAfter(tenant, now - MINUTE_MS);
    const inMinute = tenant.calls.length - minuteStart;
    const remaining = (extra: number): Remaining => ({
      minuteRemaining: Math.max(0, this.limits.perMinute - inMinute - extra),
      dayRemaining: Math.max(0, this.limits.perDay - inDay - extra),
    });
    const refuse = (problem: LimitProblem, freeAtMs: number): Admission => ({
      admitted: false,
      problem,
      retryAfterSeconds: Math.max(1, Math.ceil((freeAtMs - now) / 1000)),
      ...remaining(0),
    });
    if (inDay >= this.limits.perDay) return refuse('day', tenant.calls[tenant.first] + DAY_MS);
    if (inMinute >= this.limits.perMinute) return refuse('minute', tenant.calls[minuteStart] + MINUTE_MS);
    if (tenant.open >= this.limits.concurrent) return refuse('concurrent', now + 1000);
    tenant.open++;
    // Kept ascending even if an injected clock is set back.
    tenant.calls.push(Math.max(now, tenant.calls.at(-1) ?? now));
    let released = false;
    return {
      admitted: true,
      ...remaining(1),
      release: () => {
        if (released) return;
        released = true;
        tenant.open--;
      },
    };
  }

  usage(): TenantUsage[] {
    const now = this.now();
    return [...this.tenants].map(([tenantId, tenant]) => {
      this.prune(tenant, now);
      return {
        tenantId,
        open: tenant.open,
        lastMinute: tenant.calls.length - this.firstAfter(tenant, now - MINUTE_MS),
        lastDay: tenant.calls.length - tenant.first,
      };
    });
  }

  /** Forgets the counted requests (open ones stay open). */
  reset(): void {
    for (const tenant of this.tenants.values()) {
      tenant.calls = [];
      tenant.first = 0;
    }
  }

  private tenant(tenantId: string): Tenant {
    let tenant = this.tenants.get(tenantId);
    if (!tenant) this.tenants.set(tenantId, (tenant = { open: 0, calls: [], first: 0 }));
    return tenant;
  }

  private prune(tenant: Tenant, now: number): void {
    tenant.first = this.firstAfter(tenant, now - DAY_MS);
    // Compact now and then, not on every request.
    if (tenant.first > 1024 && tenant.first * 2 > tenant.calls.length) {
      tenant.calls = tenant.calls.slice(tenant.first);
      tenant.first = 0;
    }
  }

  /** Index of the first call after `ms`. */
  private firstAfter(tenant: Tenant, ms: number): number {
    let low = tenant.first;
    let high = tenant.calls.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (tenant.calls[mid] <= ms) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
