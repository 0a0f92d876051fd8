import { VendorError, VendorHttpClient, vendorJson } from '@irp/platform';
import type { LookupFunction } from 'node:net';
import { z } from 'zod';
import { SourceUnavailableError } from './source';

/**
 * The one way the sources speak HTTP: the platform's vendor client (timeouts, retries honouring
 * Retry-After, a limit per vendor, redirects re-checked, the SSRF guard), with every failure that a later
 * retry may cure (network, timeout, 5xx, 429, a body that is not JSON) as SourceUnavailableError, and 404
 * as an answer of its own, because the ASX feeds answer an unknown ticker with 404.
 */

/**
 * Where the ASX's documents live besides the configured feeds: the ASX site (its terms pages and
 * `/asxpdf/` files) and Markit Digital's API and CDN. They must resolve to public addresses.
 */
export const ASX_DOCUMENT_HOSTS = ['asx.com.au', '*.asx.com.au', '*.markitdigital.com'] as const;

export interface FeedClientOptions {
  /** The limiter's key: one per announcement service (asx, asx2's Markit feed shares 'asx'). */
  vendor: string;
  /** The configured base URLs (a stand-in on 127.0.0.1 in tests and `make up`). */
  baseUrls: ReadonlyArray<string | undefined>;
  /** Further hosts, e.g. ASX_DOCUMENT_HOSTS for the document fetcher. */
  allowedHosts?: readonly string[];
  /** Per attempt, body included. */
  timeoutMs: number;
  /**
   * Attempts of one exchange when the feed is busy or down. Default 1: the poller retries source calls on
   * its own schedule (SOURCE_RETRY_DELAYS_MS, each try bounded by SOURCE_TIMEOUT_MS), honouring the
   * Retry-After the error carries, so retrying here as well would multiply the tries and outrun that bound.
   */
  maxAttempts?: number;
  /** First backoff delay (default 500 ms), unless the feed's Retry-After says otherwise. */
  retryDelayMs?: number;
  /** Requests open at once (default 16) and started per rolling minute (default: no limit). */
  maxConcurrent?: number;
  perMinute?: number;
  /** Largest answer (documents are capped by the fetcher's own limit). */
  maxResponseBytes?: number;
  /** DNS lookup (tests). */
  lookup?: LookupFunction;
}

// The ASX site refuses requests without a browser-like user agent now and then.
const DEFAULT_HEADERS = { 'user-agent': 'Mozilla/5.0 (compatible; IRPortal/1.0)' };

/** The vendor client of an announcement service. */
export function feedClient(options: FeedClientOptions): VendorHttpClient {
  return new VendorHttpClient({
    vendor: `announcements:${options.vendor}`,
    baseUrls: options.baseUrls,
    allowedHosts: options.allowedHosts,
    timeoutMs: options.timeoutMs,
    maxAttempts: options.maxAttempts ?? 1,
    baseDelayMs: options.retryDelayMs ?? 500,
    maxConcurrent: options.maxConcurrent ?? 16,
    perMinute: options.perMinute,
    maxResponseBytes: options.maxResponseBytes ?? 20 * 1024 * 1024,
    headers: DEFAULT_HEADERS,
    lookup: options.lookup,
  });
}

/** Longest Retry-After the poller honours: a poll waiting longer holds its partition too long. */
export const MAX_SOURCE_RETRY_AFTER_MS = 10_000;

/** A source's error bodies say nothing the poller shows: a failure is its status. */
export const SAYS_NOTHING = (): undefined => undefined;

/**
 * A source's failure as SourceUnavailableError, decided once (retried with backoff by the poller): no answer
 * or too slow (the vendor client's message), our guard refusing the URL, or an answer (its status, and the
 * source's Retry-After on a 429 or 503, capped).
 */
export function sourceError(error: VendorError, url: string): SourceUnavailableError {
  if (error.kind === 'refused' && error.status === null)
    return new SourceUnavailableError(`${url} was refused: ${error.message}`);
  const wait =
    error.retryAfterMs === undefined ? undefined : Math.min(error.retryAfterMs, MAX_SOURCE_RETRY_AFTER_MS);
  return new SourceUnavailableError(error.message, error.status ?? undefined, wait);
}

export type JsonAnswer<T> = { found: true; body: T } | { found: false };

/**
 * GET a JSON feed, checked against the feed's described shape at the boundary (the platform's vendorJson: an
 * answer out of shape is counted in irp_vendor_invalid_answers_total and logged, naming the field):
 * `{ found: false }` for 404 (an unknown ticker: callers return []); any other failure, an unparseable,
 * empty or out-of-shape body included, is SourceUnavailableError with the status (sourceError).
 */
export async function getJson<S extends z.ZodTypeAny>(
  client: VendorHttpClient,
  url: string,
  schema: S,
): Promise<JsonAnswer<z.output<S>>> {
  try {
    const { body } = await vendorJson(client, url, schema, {
      headers: { accept: 'application/json' },
      vendorMessage: SAYS_NOTHING,
    });
    return { found: true, body };
  } catch (error) {
    if (!(error instanceof VendorError)) throw error;
    if (error.kind === 'not-found') return { found: false };
    throw sourceError(error, url);
  }
}

/**
 * Resolves a link a feed gave (absolute, root-relative or relative) against the configured base URL. A
 * root-relative link keeps the base URL's path, so a base URL behind a path prefix (a proxy) still works.
 */
export function resolveAgainst(baseUrl: string, link: string): string {
  if (/^https?:\/\//i.test(link)) return link;
  const base = baseUrl.replace(/\/+$/, '');
  if (link.startsWith('/')) return `${base}${link}`;
  return new URL(link, `${base}/`).toString();
}
