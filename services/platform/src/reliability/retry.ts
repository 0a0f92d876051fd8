export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A call that did not settle in time; adapters time out themselves, this guards against one that hangs. */
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

export interface RetryOptions {
  /** Waits before the 2nd, 3rd ... try; its length + 1 is the number of tries. */
  delaysMs: readonly number[];
  /** False stops at once (the error is thrown); default: every error is retried. */
  retryable?: (error: unknown) => boolean;
  /** The least wait the callee asked for (e.g. Retry-After on 429/503); a longer planned wait wins. */
  askedDelayMs?: (error: unknown) => number | undefined;
  /** Called before each wait (e.g. a log line). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  wait?: (ms: number) => Promise<void>;
}

/** Calls `call` until it resolves or the tries run out; throws the last error. */
export async function withRetries<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const wait = options.wait ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const planned = options.delaysMs[attempt - 1];
      if (planned === undefined || (options.retryable && !options.retryable(error))) throw error;
      const delay = Math.max(planned, options.askedDelayMs?.(error) ?? 0);
      options.onRetry?.(error, attempt, delay);
      await wait(delay);
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
