import { SourceUnavailableError } from './source';

/**
 * The one way the sources speak HTTP: Node's global fetch with a timeout, every failure that a later retry
 * may cure (network, timeout, 5xx, 429, a body that is not JSON) as SourceUnavailableError, and 404 as an
 * answer of its own, because the ASX feeds answer an unknown ticker with 404.
 */

export interface HttpOptions {
  /** The whole exchange, body included, must finish within this. */
  timeoutMs: number;
  headers?: Record<string, string>;
}

export type JsonAnswer = { found: true; body: unknown } | { found: false };

// The ASX site refuses requests without a browser-like user agent now and then.
const DEFAULT_HEADERS = { 'user-agent': 'Mozilla/5.0 (compatible; IRPortal/1.0)' };

function describe(error: unknown): { name: string; message: string; cause: unknown } {
  if (typeof error !== 'object' || error === null)
    return { name: '', message: String(error), cause: undefined };
  const { name, message, cause } = error as { name?: unknown; message?: unknown; cause?: unknown };
  return { name: String(name ?? ''), message: String(message ?? error), cause };
}

/** A failure of the exchange itself (no answer, too slow, aborted while reading) as SourceUnavailableError. */
export function unavailableFrom(error: unknown, url: string, timeoutMs: number): SourceUnavailableError {
  if (error instanceof SourceUnavailableError) return error;
  // Checked by shape, not instanceof: the abort reason is a DOMException, which is not an Error in every
  // realm (jest's sandbox, for one).
  const { name, message, cause } = describe(error);
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new SourceUnavailableError(`${url} did not answer within ${timeoutMs} ms`);
  }
  // undici reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
  const reason = cause ? `: ${describe(cause).message}` : '';
  return new SourceUnavailableError(`${url} could not be reached (${message}${reason})`);
}

/**
 * GET `url`. Answers 2xx-4xx other than those below as they are (the caller decides); a network failure,
 * a timeout, 5xx and 429 throw SourceUnavailableError. The returned body must be read before the timeout.
 */
export async function httpGet(url: string, options: HttpOptions): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { ...DEFAULT_HEADERS, ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'follow',
    });
  } catch (error) {
    throw unavailableFrom(error, url, options.timeoutMs);
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel().catch(() => undefined);
    throw new SourceUnavailableError(`${url} answered ${response.status}`, response.status);
  }
  return response;
}

/**
 * GET a JSON feed: `{ found: false }` for 404 (an unknown ticker: callers return []); any other non-2xx
 * and an unparseable body throw SourceUnavailableError with the status.
 */
export async function getJson(url: string, options: HttpOptions): Promise<JsonAnswer> {
  const response = await httpGet(url, {
    ...options,
    headers: { accept: 'application/json', ...options.headers },
  });
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return { found: false };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new SourceUnavailableError(`${url} answered ${response.status}`, response.status);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw unavailableFrom(error, url, options.timeoutMs);
  }
  try {
    return { found: true, body: JSON.parse(text) as unknown };
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
