import {
  retryAfterMs,
  VendorHttpClient,
  VendorRequestRefusedError,
  VendorResponse,
  VendorUnavailableError,
} from '@irp/platform';
import type { LookupFunction } from 'node:net';
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

/** A failure of the exchange itself (no answer, too slow, refused by the guard) as SourceUnavailableError. */
export function unavailableFrom(error: unknown, url: string): Error {
  if (error instanceof SourceUnavailableError) return error;
  if (error instanceof VendorUnavailableError) return new SourceUnavailableError(error.message);
  if (error instanceof VendorRequestRefusedError)
    return new SourceUnavailableError(`${url} was refused: ${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * GET `url`. Answers 2xx-4xx as they are (the caller decides); a network failure, a timeout, and 5xx or 429
 * after every attempt throw SourceUnavailableError.
 */
export async function httpGet(
  client: VendorHttpClient,
  url: string,
  headers: Record<string, string> = {},
): Promise<VendorResponse> {
  let response: VendorResponse;
  try {
    response = await client.request(url, { headers });
  } catch (error) {
    throw unavailableFrom(error, url);
  }
  if (response.status >= 500 || response.status === 429) throw busyOrFailing(url, response);
  return response;
}

/** Longest Retry-After the poller honours: a poll waiting longer holds its partition too long. */
export const MAX_SOURCE_RETRY_AFTER_MS = 10_000;

/** A 429 or 5xx after every attempt, carrying the source's Retry-After (on 429/503) for the poller. */
export function busyOrFailing(url: string, response: VendorResponse): SourceUnavailableError {
  const header = response.headers['retry-after'];
  const wait =
    response.status === 429 || response.status === 503
      ? retryAfterMs(Array.isArray(header) ? header[0] : header, MAX_SOURCE_RETRY_AFTER_MS)
      : undefined;
  return new SourceUnavailableError(`${url} answered ${response.status}`, response.status, wait);
}

export type JsonAnswer = { found: true; body: unknown } | { found: false };

/**
 * GET a JSON feed: `{ found: false }` for 404 (an unknown ticker: callers return []); any other non-2xx
 * and an unparseable body throw SourceUnavailableError with the status.
 */
export async function getJson(client: VendorHttpClient, url: string): Promise<JsonAnswer> {
  const response = await httpGet(client, url, { accept: 'application/json' });
  if (response.status === 404) return { found: false };
  if (response.status < 200 || response.status >= 300) {
    throw new SourceUnavailableError(`${url} answered ${response.status}`, response.status);
  }
  try {
    return { found: true, body: JSON.parse(response.body.toString('utf8')) as unknown };
  } catch {
    throw new SourceUnavailableError(`${url} answered a body that is not JSON`, response.status);
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
