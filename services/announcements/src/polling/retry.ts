import { createLogger } from '@irp/platform';
import { DocumentRefusedError, SourceNotConfiguredError, SourceUnavailableError } from '../sources/source';

const log = createLogger('polling-retry');

/**
 * Waits between the tries of one source call (so 4 tries in all): a blip of the feed is ridden out within
 * the handler, while a source that stays down costs a poll about 4 s before it is counted as failed.
 */
export const SOURCE_RETRY_DELAYS_MS: readonly number[] = [200, 1000, 3000];

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A call that did not settle in time; the adapters time out themselves, this guards against one that hangs. */
export class CallTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'CallTimeoutError';
  }
}

/** `promise`, or CallTimeoutError after `ms`. The timer never keeps the process alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallTimeoutError(what, ms)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Errors no retry can cure: the source is not configured, or the document itself is unacceptable. */
export function isPermanentSourceError(error: unknown): boolean {
  return error instanceof SourceNotConfiguredError || error instanceof DocumentRefusedError;
}

export interface RetryOptions {
  /** Waits before the 2nd, 3rd ... try; its length + 1 is the number of tries. */
  delaysMs?: readonly number[];
  /** False stops at once (the error is thrown); default: everything but permanent source errors. */
  retryable?: (error: unknown) => boolean;
  /** Called before each wait (e.g. a log line). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  wait?: (ms: number) => Promise<void>;
}

/** Calls `call` until it resolves or the tries run out; throws the last error. */
export async function withRetries<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const delays = options.delaysMs ?? SOURCE_RETRY_DELAYS_MS;
  const retryable = options.retryable ?? ((e: unknown) => !isPermanentSourceError(e));
  const wait = options.wait ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const planned = delays[attempt - 1];
      if (planned === undefined || !retryable(error)) throw error;
      // A source that said when to come back (Retry-After on 429/503) is not asked again sooner.
      const asked = error instanceof SourceUnavailableError ? (error.retryAfterMs ?? 0) : 0;
      const delay = Math.max(planned, asked);
      options.onRetry?.(error, attempt, delay);
      await wait(delay);
    }
  }
}

/** SQLSTATE classes and codes that mean "the database is (briefly) not there", not "the statement is wrong". */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
  '57P01', // admin_shutdown (a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '55P03', // lock_not_available
]);
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const TRANSIENT_MESSAGES = [
  /Connection terminated/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /is not currently accepting connections/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /Connection is not established/i,
];

function fieldOf(error: unknown, key: string): unknown {
  return typeof error === 'object' && error !== null && key in error
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/**
 * True for a database failure that waiting cures: a restart or a dropped connection (the pool reconnects),
 * a deadlock or serialization failure (the next try succeeds). TypeORM wraps the driver's error as
 * `driverError`; both are looked at.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  for (const e of [error, fieldOf(error, 'driverError')]) {
    if (!e) continue;
    const code = fieldOf(e, 'code');
    if (typeof code === 'string') {
      if (TRANSIENT_SQLSTATES.has(code) || code.startsWith('08')) return true;
      if (TRANSIENT_NETWORK_CODES.has(code)) return true;
    }
    const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
    if (TRANSIENT_MESSAGES.some((re) => re.test(message))) return true;
  }
  return false;
}

/**
 * Runs `work` again while it fails because the database is away, for up to `maxMs`. The platform's message
 * interceptor sends an event whose handler throws to `.dlq` and commits it, so a handler that is to survive
 * a database restart must wait it out itself; `work` must be idempotent (ours store by natural key).
 */
export async function retryWhileDatabaseDown<T>(
  what: string,
  work: () => Promise<T>,
  {
    maxMs = 120_000,
    firstDelayMs = 250,
    maxDelayMs = 5000,
  }: { maxMs?: number; firstDelayMs?: number; maxDelayMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + maxMs;
  let delay = firstDelayMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isTransientDatabaseError(error) || Date.now() + delay > deadline) throw error;
      log.warn({ what, err: error, retryInMs: delay }, 'database unavailable; trying again');
      await sleep(delay);
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}

/** Runs `fn` over `items` with at most `limit` at a time; resolves when all are done, rejects on the first error. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  });
  await Promise.all(workers);
  return results;
}

/** A short, single-line description of an error for logs, reports and `error` columns. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 1000);
}
