import { withRetries } from '@irp/platform';
import { DocumentRefusedError, SourceNotConfiguredError, SourceUnavailableError } from './source';

/**
 * Waits between the tries of one source call (so 4 tries in all): a blip of the feed is ridden out within
 * the handler, while a source that stays down costs a poll about 4 s before it is counted as failed.
 */
export const SOURCE_RETRY_DELAYS_MS: readonly number[] = [200, 1000, 3000];

/** Errors no retry can cure: the source is not configured, or the document itself is unacceptable. */
export function isPermanentSourceError(error: unknown): boolean {
  return error instanceof SourceNotConfiguredError || error instanceof DocumentRefusedError;
}

/**
 * A source call with the platform's `withRetries` on the source's schedule; a source that said when to
 * come back (Retry-After on 429/503) is not asked again sooner.
 */
export function withSourceRetries<T>(
  call: () => Promise<T>,
  options: {
    onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
    wait?: (ms: number) => Promise<void>;
  } = {},
): Promise<T> {
  return withRetries(call, {
    delaysMs: SOURCE_RETRY_DELAYS_MS,
    retryable: (error) => !isPermanentSourceError(error),
    askedDelayMs: (error) => (error instanceof SourceUnavailableError ? error.retryAfterMs : undefined),
    ...options,
  });
}
