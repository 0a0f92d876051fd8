import { sleep } from './retry';
import { isTransientError } from './transient-errors';

/** How long a handler keeps trying a transient failure, and how far apart its tries are. */
export interface HandlerRetryPolicy {
  /** From the first try; long enough to ride out a database restart. */
  maxMs: number;
  /** The first wait; each next one doubles, up to `maxDelayMs`, each jittered. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_HANDLER_RETRY: HandlerRetryPolicy = {
  maxMs: 300_000,
  firstDelayMs: 250,
  maxDelayMs: 5000,
};

/**
 * The wait before try `attempt + 1`: exponential, capped, with "equal jitter" (half fixed, half random) so
 * the instances of a service that all lost the database at once do not all come back in the same instant.
 */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<HandlerRetryPolicy, 'firstDelayMs' | 'maxDelayMs'>,
  random = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface RetryTransientOptions {
  policy: HandlerRetryPolicy;
  /** Epoch ms after which nobody waits for the result (a request's deadline); no try starts after it. */
  deadline?: number;
  /** Which errors are worth another try; default: `isTransientError`. */
  transient?: (error: unknown) => boolean;
  /** Called before each wait (a metric, a log line). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  wait?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Runs `work` again while it fails transiently, within the policy's bound and the deadline; a permanent
 * failure, or a transient one whose next try would start too late, is thrown at once. `work` must be
 * idempotent (ours store by natural key or request key).
 */
export async function retryTransient<T>(work: () => Promise<T>, options: RetryTransientOptions): Promise<T> {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? sleep;
  const transient = options.transient ?? isTransientError;
  const until = Math.min(now() + options.policy.maxMs, options.deadline ?? Infinity);
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const delay = backoffDelayMs(attempt, options.policy);
      if (!transient(error) || now() + delay > until) throw error;
      options.onRetry?.(error, attempt, delay);
      await wait(delay);
    }
  }
}

/** How often a long handler tells the broker it is alive: well inside the smallest session timeout (6 s). */
const HEARTBEAT_EVERY_MS = 1000;

/**
 * Runs a handler's work while heartbeating its consumer. kafkajs heartbeats only between messages, so a
 * handler that waits for a slow source, or for the database through retries, would otherwise outlive the
 * session timeout: the broker would hand its partition (and this message) to another consumer while it
 * still works. A failed heartbeat (a rebalance, the broker away) is left to the consumer.
 */
export async function whileHeartbeating<T>(
  heartbeat: (() => Promise<void>) | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!heartbeat) return work();
  const timer = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_EVERY_MS);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
