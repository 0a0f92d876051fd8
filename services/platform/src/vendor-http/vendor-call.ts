import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { createLogger } from '../logging';
import { vendorInvalidAnswers } from '../metrics';
import {
  retryAfterMs,
  VendorHttpClient,
  VendorRequest,
  VendorRequestRefusedError,
  VendorResponse,
  VendorResponseTooLargeError,
  VendorUnavailableError,
} from './vendor-http';

const log = createLogger('vendor-http');

/**
 * How a call to a vendor failed, the same for every vendor:
 * - `refused`: the vendor refused the request (a 4xx other than 404; `status` says which), or our guard
 *   refused its URL before sending (`status` null);
 * - `unavailable`: no answer, too slow, or busy/failing (429, 5xx) through every attempt;
 * - `not-found`: the vendor answered 404;
 * - `invalid-answer`: an answer that is not what the vendor's API describes (a 2xx body that is not JSON,
 *   not the schema, or larger than the cap; a redirect not followed or a status not accepted).
 */
export type VendorErrorKind = 'refused' | 'unavailable' | 'not-found' | 'invalid-answer';

/** What a VendorError knows of the exchange besides its kind and message. */
export interface VendorErrorDetail {
  /** The vendor's answer's status; null when there was none. */
  status: number | null;
  /** Its status text ('Service Unavailable'), when it answered. */
  statusText?: string;
  /** What the vendor said of the failure (its error body's message), when it said anything. */
  vendorMessage?: string;
  /** The wait a 429 or 503 asked for (Retry-After), in ms. */
  retryAfterMs?: number;
  /** Attempts made (retries of a busy or failing vendor included). */
  attempts?: number;
  /** Whether the last attempt ran out of time. */
  timedOut?: boolean;
  /** The URL that answered (after redirects), or the one refused or not reached. */
  url?: string;
}

/** One vendor call's failure: each adapter maps it to its domain once (an AppError, a source outage). */
export class VendorError extends Error {
  readonly status: number | null;
  readonly statusText?: string;
  readonly vendorMessage?: string;
  readonly retryAfterMs?: number;
  readonly attempts?: number;
  readonly timedOut: boolean;
  readonly url?: string;

  constructor(
    readonly vendor: string,
    readonly kind: VendorErrorKind,
    message: string,
    detail: VendorErrorDetail,
  ) {
    super(message);
    this.name = 'VendorError';
    this.status = detail.status;
    this.statusText = detail.statusText;
    this.vendorMessage = detail.vendorMessage;
    this.retryAfterMs = detail.retryAfterMs;
    this.attempts = detail.attempts;
    this.timedOut = detail.timedOut ?? false;
    this.url = detail.url;
  }
}

/**
 * A vendor's failure as staff may read it: a reference to quote, never the vendor's own words (an error
 * body can name its accounts, endpoints or internals, and is not ours to pass on). The detail is logged
 * here, once, under that reference (`context` adds what the adapter knows: the stock, the day).
 */
export function vendorErrorReference(error: VendorError, context: Record<string, unknown> = {}): string {
  const reference = randomBytes(4).toString('hex');
  log.warn(
    {
      ...context,
      reference,
      vendor: error.vendor,
      kind: error.kind,
      status: error.status,
      statusText: error.statusText,
      vendorMessage: error.vendorMessage,
      url: error.url,
      attempts: error.attempts,
      timedOut: error.timedOut,
    },
    `vendor error (reference ${reference}): ${error.message}`,
  );
  return reference;
}

export interface VendorCallOptions extends VendorRequest {
  /** Statuses besides 2xx that are an answer, not a failure (a 304 Not Modified). */
  accept?: readonly number[];
  /** The vendor's message in an error body (parsed JSON when it is JSON, else the text). */
  vendorMessage?: (body: unknown) => string | undefined;
}

const header = (res: VendorResponse, name: string): string | undefined => {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** An error body as JSON when it is JSON, else its text. */
const errorBody = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * A request to the vendor whose non-2xx answer (beyond `accept`) and transport failures are a VendorError:
 * the one call shape every adapter uses (the body stays bytes: a document, a PDF).
 */
export async function vendorCall(
  client: VendorHttpClient,
  url: string,
  options: VendorCallOptions = {},
): Promise<VendorResponse> {
  let res: VendorResponse;
  try {
    res = await client.request(url, options);
  } catch (error) {
    if (error instanceof VendorRequestRefusedError)
      throw new VendorError(client.vendor, 'refused', error.message, { status: null, url: error.url });
    if (error instanceof VendorResponseTooLargeError)
      throw new VendorError(client.vendor, 'invalid-answer', error.message, { status: null, url: error.url });
    if (error instanceof VendorUnavailableError)
      throw new VendorError(client.vendor, 'unavailable', error.message, {
        status: error.status,
        attempts: error.attempts,
        timedOut: error.timedOut,
        url: error.url,
      });
    throw error;
  }
  if ((res.status >= 200 && res.status < 300) || options.accept?.includes(res.status)) return res;
  const text = res.body.toString('utf8');
  const said = (options.vendorMessage ?? defaultVendorMessage)(errorBody(text))?.trim() || undefined;
  const kind: VendorErrorKind =
    res.status === 404
      ? 'not-found'
      : res.status === 429 || res.status >= 500
        ? 'unavailable'
        : res.status >= 400
          ? 'refused'
          : 'invalid-answer';
  const wait =
    res.status === 429 || res.status === 503
      ? retryAfterMs(header(res, 'retry-after'), Number.MAX_SAFE_INTEGER)
      : undefined;
  throw new VendorError(client.vendor, kind, `${res.url} answered ${res.status}${said ? `: ${said}` : ''}`, {
    status: res.status,
    statusText: res.statusText,
    vendorMessage: said,
    retryAfterMs: wait,
    attempts: res.attempts,
    url: res.url,
  });
}

/**
 * A JSON call: vendorCall, then the body parsed and checked against the vendor's published shape (an empty
 * body as undefined). An answer that is not JSON or not that shape is `invalid-answer` naming the first
 * mismatch.
 */
export async function vendorJson<S extends z.ZodTypeAny>(
  client: VendorHttpClient,
  url: string,
  schema: S,
  options: VendorCallOptions = {},
): Promise<{ body: z.output<S>; response: VendorResponse }> {
  const response = await vendorCall(client, url, options);
  const text = response.body.toString('utf8');
  /** An answer the vendor's API does not describe: counted and logged here, once for every adapter. */
  const invalid = (message: string, field?: string) => {
    vendorInvalidAnswers.inc({ vendor: client.vendor });
    log.warn({ vendor: client.vendor, url, status: response.status, field }, message);
    return new VendorError(client.vendor, 'invalid-answer', message, {
      status: response.status,
      attempts: response.attempts,
    });
  };
  let parsed: unknown;
  try {
    // An empty answer (a 204) is undefined to the schema, which says whether it may be.
    parsed = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw invalid(`${url} answered a body that is not JSON`);
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : 'the body';
    throw invalid(`${url} answered a body its API does not describe (${where}: ${issue.message})`, where);
  }
  return { body: checked.data, response };
}

/** The message of the usual error bodies: `{ error: { message } }`, `{ message }`, `{ detail }`, `{ Message }`, or text. */
function defaultVendorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 200);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const nested =
    b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>).message : b.error;
  for (const candidate of [nested, b.message, b.detail, b.Message, b.title])
    if (typeof candidate === 'string' && candidate) return candidate.slice(0, 200);
  return undefined;
}
