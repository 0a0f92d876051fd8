import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { vendorRateLimited } from '../metrics';
import { bareHost, effectivePort, hostMatches, isPublicAddress, isStandInHost } from './vendor-address';
import { credentialsOf } from './vendor-credentials';
import { DEFAULT_MAX_CONCURRENT, limiterFor, type VendorLimiter } from './vendor-limiter';

export { isPublicAddress } from './vendor-address';
export * from './vendor-url';

/**
 * The one way services speak HTTP to a vendor, beneath the vendor kit (vendor-call.ts, which every adapter
 * calls): a timeout per attempt, retries with backoff that
 * honour Retry-After on 429/503, a concurrency and rate limit per vendor, a cap on the response size,
 * redirects followed by hand and re-checked on every hop (never with credentials), and an SSRF guard.
 *
 * The guard: a URL's host must be one of the vendor's hosts (the hosts of its configured base URLs, plus
 * the hosts it names, `*.example.com` for any subdomain), and the address actually connected to (checked
 * in the socket's own DNS lookup, so a name cannot resolve to one address when checked and another when
 * connected) must be a public unicast address. Loopback, private, link-local and the other special ranges
 * are refused unless the host and port are those of a configured stand-in: a base URL whose host is an IP
 * literal, `localhost` or a single-label name (a container's name), which an operator configures for
 * tests and `make up`. A link found in a third-party page is never a stand-in, whatever it names.
 */

export interface VendorHttpConfig {
  /** Names the vendor in errors and logs, and keys the shared limiter: clients of one vendor share it. */
  vendor: string;
  /** The configured base URLs: their hosts are allowed; those that look like stand-ins may be private. */
  baseUrls: ReadonlyArray<string | undefined>;
  /** Further hosts of the vendor (must resolve to public addresses): 'cdn.vendor.com', '*.vendor.com'. */
  allowedHosts?: readonly string[];
  /** Per attempt, the whole exchange including the body. */
  timeoutMs: number;
  /** Attempts of one request when the vendor is busy or down (429, 5xx, no answer); default 3. */
  maxAttempts?: number;
  /** First backoff delay, doubled each attempt, unless the vendor's Retry-After says; default 500 ms. */
  baseDelayMs?: number;
  /** Longest Retry-After honoured; longer waits are cut to this; default 30 s. */
  maxRetryAfterMs?: number;
  /** Requests in flight at once to this vendor (across every client with its name); default 5. */
  maxConcurrent?: number;
  /** Requests started per rolling minute to this vendor; default unlimited. */
  perMinute?: number;
  /** Largest response body accepted; default 10 MB. */
  maxResponseBytes?: number;
  /** Redirect hops followed; default 5. */
  maxRedirects?: number;
  /** Sent with every request unless the call overrides it. */
  headers?: Record<string, string>;
  /** DNS lookup (tests inject one that resolves a name to a chosen address); default dns.lookup. */
  lookup?: LookupFunction;
}

export interface VendorRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A string or bytes as they are; anything else as JSON (with its content type). */
  body?: unknown;
  /** Retry on 429, 5xx and no answer (default true; the caller decides whether the call is safe to repeat). */
  retry?: boolean;
  /** Overrides the vendor's size cap for this call (a document). */
  maxResponseBytes?: number;
  /** Follow redirects (default true); each hop is checked like the first URL. */
  followRedirects?: boolean;
}

export interface VendorResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  body: Buffer;
  /** How many attempts it took. */
  attempts: number;
}

/** A URL the guard refused (host not the vendor's, or an address it may not reach): never retried. */
export class VendorRequestRefusedError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'VendorRequestRefusedError';
  }
}

/**
 * A redirect answered to a request carrying credentials (an Authorization header, an API key in a header
 * or the query string): not followed, so a vendor's key is only ever sent where it was configured to go.
 * Never retried; `status` and `location` are the redirect's.
 */
export class VendorRedirectRefusedError extends VendorRequestRefusedError {
  constructor(
    url: string,
    readonly status: number,
    readonly location: string,
    credentials: readonly string[],
  ) {
    super(
      `${url} answered ${status} (a redirect to ${location}), not followed: the request carries credentials (${credentials.join(', ')})`,
      url,
    );
    this.name = 'VendorRedirectRefusedError';
  }
}

/** The response grew beyond the size cap (declared or counted while streaming). */
export class VendorResponseTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`${url} answered more than ${maxBytes} bytes`);
    this.name = 'VendorResponseTooLargeError';
  }
}

/**
 * The vendor could not be reached, was too slow, or stayed busy/failing through every attempt. `status` is
 * the last answer's status (null when there was none), `timedOut` whether the last attempt ran out of time.
 */
export class VendorUnavailableError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
    readonly attempts: number,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'VendorUnavailableError';
  }
}

const DEFAULTS = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxRetryAfterMs: 30_000,
  maxConcurrent: DEFAULT_MAX_CONCURRENT,
  maxResponseBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
};

/** Retry-After in seconds (or an HTTP date) as milliseconds, capped; undefined when absent or unreadable. */
export function retryAfterMs(
  header: string | null | undefined,
  capMs = DEFAULTS.maxRetryAfterMs,
): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, capMs);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - Date.now()), capMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Attempt {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  url: string;
  body: Buffer;
}

class AttemptTimeout extends Error {}

export class VendorHttpClient {
  readonly vendor: string;
  private readonly hosts: string[];
  /** `host:port` of the configured stand-ins, the only origins that may be private or loopback. */
  private readonly standIns = new Set<string>();
  private readonly limiter: VendorLimiter;

  constructor(readonly config: VendorHttpConfig) {
    this.vendor = config.vendor;
    this.hosts = [...(config.allowedHosts ?? [])].map((h) => h.toLowerCase());
    for (const base of config.baseUrls) {
      if (!base) continue;
      const url = new URL(base);
      const host = bareHost(url.hostname);
      this.hosts.push(host);
      if (isStandInHost(host)) this.standIns.add(`${host}:${effectivePort(url)}`);
    }
    this.limiter = limiterFor(config);
  }

  /** Whether `url` names one of the vendor's hosts (the address is checked when connecting). */
  allows(url: string): boolean {
    try {
      this.checkUrl(new URL(url));
      return true;
    } catch {
      return false;
    }
  }

  async request(url: string, options: VendorRequest = {}): Promise<VendorResponse> {
    const attempts = options.retry === false ? 1 : (this.config.maxAttempts ?? DEFAULTS.maxAttempts);
    const baseDelay = this.config.baseDelayMs ?? DEFAULTS.baseDelayMs;
    let last: VendorUnavailableError | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let answer: Attempt;
      await this.limiter.acquire();
      try {
        answer = await this.followRedirects(url, options);
      } catch (error) {
        if (error instanceof VendorRequestRefusedError || error instanceof VendorResponseTooLargeError)
          throw error;
        const timedOut = error instanceof AttemptTimeout;
        last = new VendorUnavailableError(
          timedOut
            ? `${url} did not answer within ${this.config.timeoutMs} ms`
            : `${url} could not be reached (${describeError(error)})`,
          url,
          null,
          attempt,
          timedOut,
        );
        if (attempt < attempts) await sleep(baseDelay * 2 ** (attempt - 1));
        continue;
      } finally {
        this.limiter.release();
      }
      if (answer.status === 429) vendorRateLimited.inc({ vendor: this.vendor });
      if (answer.status !== 429 && answer.status < 500) return { ...answer, attempts: attempt };
      last = new VendorUnavailableError(
        `${url} answered ${answer.status}`,
        answer.url,
        answer.status,
        attempt,
      );
      if (attempt === attempts) return { ...answer, attempts: attempt };
      const header = answer.headers['retry-after'];
      const honoured =
        answer.status === 429 || answer.status === 503
          ? retryAfterMs(Array.isArray(header) ? header[0] : header, this.config.maxRetryAfterMs)
          : undefined;
      await sleep(honoured ?? baseDelay * 2 ** (attempt - 1));
    }
    throw last!;
  }

  private checkUrl(url: URL): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new VendorRequestRefusedError(`${url.href} is not an http(s) URL`, url.href);
    if (url.username || url.password)
      throw new VendorRequestRefusedError(`${url.href} carries credentials`, url.href);
    const host = bareHost(url.hostname);
    if (!this.hosts.some((pattern) => hostMatches(pattern, host)))
      throw new VendorRequestRefusedError(`${host} is not a host of ${this.vendor}`, url.href);
    if (isIP(host)) this.checkAddress(url, host);
  }

  private checkAddress(url: URL, address: string): void {
    if (isPublicAddress(address)) return;
    if (this.standIns.has(`${bareHost(url.hostname)}:${effectivePort(url)}`)) return;
    throw new VendorRequestRefusedError(
      `${url.host} resolves to ${address}, an address ${this.vendor}'s client may not reach`,
      url.href,
    );
  }

  /** A lookup for the socket that refuses an address the URL may not reach: checks what is connected to. */
  private guardedLookup(url: URL): LookupFunction {
    const lookup = this.config.lookup ?? (dns.lookup as unknown as LookupFunction);
    return (hostname, options, callback) => {
      lookup(hostname, options, (error, address, family) => {
        if (error) return callback(error, address, family);
        const addresses = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
        try {
          for (const a of addresses) this.checkAddress(url, a.address);
        } catch (refused) {
          return callback(refused as NodeJS.ErrnoException, '', 4);
        }
        callback(null, address, family);
      });
    };
  }

  private async followRedirects(start: string, options: VendorRequest): Promise<Attempt> {
    const maxRedirects = this.config.maxRedirects ?? DEFAULTS.maxRedirects;
    const deadline = Date.now() + this.config.timeoutMs;
    let url = new URL(start);
    let method = options.method ?? 'GET';
    let body = options.body;
    for (let hop = 0; ; hop++) {
      this.checkUrl(url);
      const answer = await this.once(url, method, body, options, deadline);
      const location = answer.headers.location;
      if (options.followRedirects === false || answer.status < 300 || answer.status >= 400 || !location)
        return answer;
      const next = new URL(location, url);
      const credentials = credentialsOf(url, { ...this.config.headers, ...options.headers });
      if (credentials.length)
        throw new VendorRedirectRefusedError(url.href, answer.status, next.href, credentials);
      if (hop >= maxRedirects)
        throw new VendorRequestRefusedError(`${start} redirected more than ${maxRedirects} times`, start);
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      // A cookie (a terms page's session, the document fetcher's) is for the origin that set it only.
      if (next.origin !== url.origin) options = { ...options, headers: withoutCookie(options.headers) };
      url = next;
    }
  }

  private once(
    url: URL,
    method: string,
    body: unknown,
    options: VendorRequest,
    deadline: number,
  ): Promise<Attempt> {
    const maxBytes = options.maxResponseBytes ?? this.config.maxResponseBytes ?? DEFAULTS.maxResponseBytes;
    const payload =
      body === undefined
        ? undefined
        : typeof body === 'string' || Buffer.isBuffer(body)
          ? body
          : JSON.stringify(body);
    const headers: Record<string, string> = {
      ...this.config.headers,
      ...(payload !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)
        ? { 'content-type': 'application/json' }
        : {}),
      ...options.headers,
    };
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<Attempt>((resolve, reject) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return reject(new AttemptTimeout());
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = transport.request(url, { method, headers, lookup: this.guardedLookup(url) }, (res) => {
        const declared = Number(res.headers['content-length']);
        const tooLarge = () => {
          finish(() => reject(new VendorResponseTooLargeError(url.href, maxBytes)));
          res.destroy();
          req.destroy();
        };
        if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > maxBytes) return tooLarge();
          chunks.push(chunk);
        });
        res.on('end', () =>
          finish(() =>
            resolve({
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? '',
              headers: res.headers,
              url: url.href,
              body: Buffer.concat(chunks, total),
            }),
          ),
        );
        res.on('error', (error) => finish(() => reject(error)));
        res.on('aborted', () => finish(() => reject(new Error('the answer was cut off'))));
      });
      const timer = setTimeout(() => {
        finish(() => reject(new AttemptTimeout()));
        req.destroy();
      }, remaining);
      req.on('error', (error) =>
        finish(() => reject(error instanceof VendorRequestRefusedError ? error : unwrapRefusal(error))),
      );
      req.end(payload);
    });
  }
}

/** The guard's refusal reaches `req`'s error handler as the lookup's error (or its cause). */
function unwrapRefusal(error: Error): Error {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof VendorRequestRefusedError ? cause : error;
}

function withoutCookie(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'cookie'));
}
