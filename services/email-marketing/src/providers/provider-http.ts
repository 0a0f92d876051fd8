import { VendorError, vendorErrorReference, VendorHttpClient, vendorJson } from '@irp/platform';
import { z } from 'zod';
import { ProviderError, ProviderOptions } from './provider';

export { retryAfterMs } from '@irp/platform';

export interface ProviderCall<S extends z.ZodTypeAny = z.ZodUnknown> {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  authorization: string;
  body?: unknown;
  /** The vendor's error body as a sentence (its shape differs per vendor); undefined when it says nothing. */
  describe: (body: unknown) => string | undefined;
  /**
   * What the vendor publishes for a success (the fields the adapter reads): an answer it does not describe is
   * a retryable ProviderError naming the field, never a TypeError further in. Default: anything.
   */
  reply?: S;
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
 * One call to a provider's JSON API on the platform's vendor kit: 429, 5xx and no answer retried with backoff
 * (the provider's Retry-After when it gives one); the failure then mapped once (`providerError`). Resolves
 * with the parsed body ('' for an empty one).
 */
export async function callProvider<S extends z.ZodTypeAny = z.ZodUnknown>(
  client: VendorHttpClient,
  call: ProviderCall<S>,
): Promise<z.output<S>> {
  try {
    const { body } = await vendorJson(client, call.url, call.reply ?? z.unknown(), {
      method: call.method,
      headers: { authorization: call.authorization, accept: 'application/json' },
      body: call.body,
      vendorMessage: call.describe,
    });
    return (body ?? '') as z.output<S>;
  } catch (err) {
    throw err instanceof VendorError ? providerError(err, client, call.url) : err;
  }
}

/**
 * A provider's failure as a ProviderError, decided once: a refusal (a 4xx but 429) at once, not retryable;
 * busy, failing or silent after every attempt, or an answer it does not describe, retryable ("Please try
 * again later"); our guard refusing the address, not retryable. The provider's own words (its error body)
 * never reach staff: such a message names a reference instead, under which the detail is logged
 * (vendorErrorReference).
 */
function providerError(err: VendorError, client: VendorHttpClient, url: string): ProviderError {
  if (err.kind === 'invalid-answer' && err.status === null)
    return new ProviderError('The email-marketing service answered more than expected', null, true);
  if (err.kind === 'refused' && err.status === null)
    return new ProviderError(
      `The email-marketing service's address was refused: ${err.message}`,
      null,
      false,
    );
  if (err.kind === 'invalid-answer')
    return new ProviderError(
      `The email-marketing service's answer could not be used: ${err.message}`,
      null,
      true,
    );
  if (err.kind === 'unavailable' && err.status === null) {
    const why = err.timedOut ? `timed out after ${client.config.timeoutMs} ms` : err.message;
    return new ProviderError(
      `The email-marketing service did not answer (${why}) after ${err.attempts} attempts. Please try again later.`,
      null,
      true,
    );
  }
  const reference = vendorErrorReference(err, { url });
  if (err.kind !== 'unavailable')
    return new ProviderError(refusalOf(err.status, reference), err.status, false);
  return new ProviderError(
    `The email-marketing service answered ${err.status} ${err.statusText} (reference ${reference}) after ${err.attempts} attempts. Please try again later.`,
    null,
    true,
  );
}

/** A provider's refusal in our words, by its status. */
function refusalOf(status: number | null, reference: string): string {
  if (status === 401 || status === 403)
    return `The email-marketing service refused the API key (reference ${reference})`;
  if (status === 404)
    return `The email-marketing service has no such list or template (reference ${reference})`;
  return `The email-marketing service refused the request (HTTP ${status}, reference ${reference})`;
}
