import { createLogger } from '@irp/platform';
import { ProviderError, ProviderOptions } from './provider';

const log = createLogger('email-provider');

export interface ProviderCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  authorization: string;
  body?: unknown;
  /** The vendor's error body as a sentence (its shape differs per vendor). */
  describe: (status: number, body: unknown) => string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retry-After in seconds (or an HTTP date) as milliseconds, capped; undefined when absent. */
export function retryAfterMs(header: string | null, capMs = 30_000): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(Math.max(0, seconds * 1000), capMs);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - Date.now()), capMs);
}

/**
 * One call to a provider's JSON API: a timeout per attempt; 429, 5xx and no answer retried with backoff
 * (the provider's Retry-After when it gives one); a refusal (other 4xx) at once as a ProviderError with the
 * vendor's message. Resolves with the parsed body ('' for an empty one).
 */
export async function callProvider(call: ProviderCall, options: ProviderOptions): Promise<unknown> {
  const attempts = options.maxAttempts ?? 4;
  const baseDelay = options.baseDelayMs ?? 500;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let res: Response;
    try {
      res = await fetch(call.url, {
        method: call.method,
        headers: {
          authorization: call.authorization,
          accept: 'application/json',
          ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: call.body !== undefined ? JSON.stringify(call.body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      last = `did not answer (${(err as Error).name === 'TimeoutError' ? `timed out after ${options.timeoutMs} ms` : (err as Error).message})`;
      if (attempt < attempts) await sleep(baseDelay * 2 ** (attempt - 1));
      continue;
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : '';
    } catch {
      /* not JSON: keep the text */
    }
    if (res.ok) return body;
    const message = call.describe(res.status, body);
    if (res.status !== 429 && res.status < 500) throw new ProviderError(message, res.status, false);
    last = `answered ${res.status} ${res.statusText}: ${message}`;
    log.warn(
      { url: call.url, status: res.status, attempt },
      'email-marketing provider busy or failing; retrying',
    );
    if (attempt < attempts)
      await sleep(retryAfterMs(res.headers.get('retry-after')) ?? baseDelay * 2 ** (attempt - 1));
  }
  throw new ProviderError(
    `The email-marketing service ${last} after ${attempts} attempts. Please try again later.`,
    null,
    true,
  );
}
