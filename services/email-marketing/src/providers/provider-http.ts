import {
  createLogger,
  VendorHttpClient,
  VendorRequestRefusedError,
  VendorResponse,
  VendorResponseTooLargeError,
  VendorUnavailableError,
} from '@irp/platform';
import { ProviderError, ProviderOptions } from './provider';

export { retryAfterMs } from '@irp/platform';

const log = createLogger('email-provider');

export interface ProviderCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  authorization: string;
  body?: unknown;
  /** The vendor's error body as a sentence (its shape differs per vendor). */
  describe: (status: number, body: unknown) => string;
}

/**
 * A provider's vendor client: its own API hosts (`*.api.mailchimp.com`, `api.createsend.com`) and the
 * configured base URL (the stand-in), at most `maxConcurrent` calls open (Mailchimp allows 10 per key),
 * a timeout per attempt and retries honouring Retry-After.
 */
export function providerClient(
  vendor: string,
  vendorHosts: readonly string[],
  options: ProviderOptions,
  defaultConcurrency: number,
): VendorHttpClient {
  return new VendorHttpClient({
    vendor: `email-marketing:${vendor}`,
    baseUrls: [options.baseUrl],
    allowedHosts: vendorHosts,
    timeoutMs: options.timeoutMs,
    maxAttempts: options.maxAttempts ?? 4,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxConcurrent: options.maxConcurrent ?? defaultConcurrency,
    perMinute: options.perMinute,
    maxResponseBytes: 5 * 1024 * 1024,
    lookup: options.lookup,
  });
}

/**
 * One call to a provider's JSON API through its vendor client: 429, 5xx and no answer retried with backoff
 * (the provider's Retry-After when it gives one); a refusal (other 4xx) at once as a ProviderError with the
 * vendor's message. Resolves with the parsed body ('' for an empty one).
 */
export async function callProvider(client: VendorHttpClient, call: ProviderCall): Promise<unknown> {
  let res: VendorResponse;
  try {
    res = await client.request(call.url, {
      method: call.method,
      headers: { authorization: call.authorization, accept: 'application/json' },
      body: call.body,
    });
  } catch (err) {
    if (err instanceof VendorRequestRefusedError)
      throw new ProviderError(
        `The email-marketing service's address was refused: ${err.message}`,
        null,
        false,
      );
    if (err instanceof VendorResponseTooLargeError)
      throw new ProviderError('The email-marketing service answered more than expected', null, true);
    if (err instanceof VendorUnavailableError) {
      const why = err.timedOut ? `timed out after ${client.config.timeoutMs} ms` : err.message;
      throw new ProviderError(
        `The email-marketing service did not answer (${why}) after ${err.attempts} attempts. Please try again later.`,
        null,
        true,
      );
    }
    throw err;
  }
  const text = res.body.toString('utf8');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : '';
  } catch {
    /* not JSON: keep the text */
  }
  if (res.status >= 200 && res.status < 300) return body;
  const message = call.describe(res.status, body);
  if (res.status !== 429 && res.status < 500) throw new ProviderError(message, res.status, false);
  log.warn(
    { url: call.url, status: res.status, attempts: res.attempts },
    'email-marketing provider busy or failing after every attempt',
  );
  throw new ProviderError(
    `The email-marketing service answered ${res.status} ${res.statusText}: ${message} after ${res.attempts} attempts. Please try again later.`,
    null,
    true,
  );
}
