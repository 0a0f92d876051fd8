import { RateLimiterMemory } from 'rate-limiter-flexible';
import { SharedLimiter, SharedLimitStore } from './limit-store';

/**
 * A SharedLimitStore whose limiters count in this process (rate-limiter-flexible's memory store, the same
 * limiter API as its PostgreSQL one): for unit tests of a limit's callers. The shared counting itself is
 * shown against PostgreSQL with two gateway processes (gateway/test/shared-limits.int-spec.ts).
 */
export function memoryLimitStore(): SharedLimitStore {
  const store: Pick<SharedLimitStore, 'limiter'> = {
    limiter: (prefix, points, durationSeconds) =>
      new SharedLimiter(new RateLimiterMemory({ keyPrefix: prefix, points, duration: durationSeconds })),
  };
  return store as SharedLimitStore;
}
