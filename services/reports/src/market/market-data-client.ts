import { AppError, VendorError, VendorHttpClient, vendorErrorReference, vendorJson } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { z } from 'zod';

/** The adapter has already retried the provider as its limits allow: the handler does not retry again. */
const FINAL = { final: true } as const;

export const TRADES_PAGE_SIZE = 5000;

export interface MarketDataClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxConcurrent: number;
  perMinute: number;
  maxAttempts: number;
  maxRetryAfterMs: number;
}

const n = z.number().finite();
export const ApiQuoteSchema = z.object({
  code: z.string(),
  bid: n.nullable(),
  ask: n.nullable(),
  last: n.nullable(),
  change: n.nullable(),
  changePercent: n.nullable(),
  open: n.nullable(),
  high: n.nullable(),
  low: n.nullable(),
  volume: n.nullable(),
  sharesOnIssue: n.nullable(),
  marketCap: n.nullable(),
  asAt: z.string(),
});
export type ApiQuote = z.infer<typeof ApiQuoteSchema>;

export const ApiBarSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  open: n,
  high: n,
  low: n,
  close: n,
  volume: n,
});
export type ApiBar = z.infer<typeof ApiBarSchema>;

export const ApiTradeSchema = z.object({
  seq: z.number().int().positive(),
  tradedAt: z.string(),
  price: n.positive(),
  volume: z.number().int().positive(),
  buyerBrokerId: z.number().int(),
  sellerBrokerId: z.number().int(),
  conditionCodes: z.array(z.string()).default([]),
});
export type ApiTrade = z.infer<typeof ApiTradeSchema>;

const QuotesSchema = z.object({ data: z.array(ApiQuoteSchema) });
const BarsSchema = z.object({ data: z.array(ApiBarSchema) });
const BrokersSchema = z.object({ data: z.array(z.object({ id: z.number().int(), name: z.string() })) });
const TradesPageSchema = z.object({
  data: z.array(ApiTradeSchema),
  paging: z.object({ page: z.number().int(), total: z.number().int(), next: z.string().nullable() }),
});

/** A code the provider does not list (404): not an outage, the stock is just not covered. */
export class UnknownSecurityError extends AppError {
  constructor(code: string) {
    super(ErrorCode.NotFound, `The market-data provider does not list ${code}`, FINAL);
  }
}

/**
 * A day whose trades the provider has not published yet (404 with the error reason `not_published_yet`):
 * broker-level trades are published at T+3, so a young day is asked again later. Not an outage and not an
 * unknown code; the loader decides whether it is overdue (a gap) or still expected.
 */
export class TradesNotPublishedError extends AppError {
  constructor(
    readonly security: string,
    readonly day: string,
  ) {
    super(
      ErrorCode.NotFound,
      `The market-data provider has not published the trades of ${security} on ${day} yet`,
      FINAL,
    );
  }
}

/** The provider's reason of a "not published yet" 404 (its error body's `error.reason`). */
export const NOT_PUBLISHED_YET = 'not_published_yet';

/** The machine-readable reason of a provider's error body (`{ error: { code, reason?, message } }`). */
const ErrorReasonSchema = z.object({ error: z.object({ reason: z.string() }) });

/**
 * The adapter of the market-data provider (docs/api/reports.md, "The market-data provider"): quotes, daily
 * OHLCV, a trading day's trades with buyer and seller broker ids (paged), the broker list; the API key in
 * `X-Api-Key`; its limits kept on our side on the platform's vendor client (concurrency and per-minute)
 * with a 429's or 503's Retry-After honoured and reads retried. An outage after the retries is
 * SERVICE_UNAVAILABLE with its message; an unknown code is NOT_FOUND (UnknownSecurityError); a day not
 * published yet is TradesNotPublishedError.
 */
export class MarketDataClient {
  private readonly http: VendorHttpClient;
  /** Requests made (tests count them). */
  requests = 0;

  constructor(private readonly options: MarketDataClientOptions) {
    this.http = new VendorHttpClient({
      vendor: 'reports:market-data',
      baseUrls: [options.baseUrl],
      timeoutMs: options.timeoutMs,
      maxConcurrent: options.maxConcurrent,
      perMinute: options.perMinute,
      maxAttempts: options.maxAttempts,
      maxRetryAfterMs: options.maxRetryAfterMs,
      maxResponseBytes: 64 * 1024 * 1024,
      headers: { accept: 'application/json', 'x-api-key': options.apiKey },
    });
  }

  async brokers(): Promise<Array<{ id: number; name: string }>> {
    return (await this.json('/v1/brokers', BrokersSchema)).data;
  }

  /** Current quotes of up to 100 codes; codes the provider does not list are left out. */
  async quotes(codes: string[]): Promise<ApiQuote[]> {
    const out: ApiQuote[] = [];
    for (let i = 0; i < codes.length; i += 100) {
      const batch = codes
        .slice(i, i + 100)
        .map(encodeURIComponent)
        .join(',');
      out.push(...(await this.json(`/v1/quotes?codes=${batch}`, QuotesSchema)).data);
    }
    return out;
  }

  async dailyBars(code: string, from: string, to: string): Promise<ApiBar[]> {
    const path = `/v1/securities/${encodeURIComponent(code)}/ohlcv?from=${from}&to=${to}`;
    return (await this.json(path, BarsSchema, code)).data;
  }

  /** Every trade of `code` on `day` (all pages), in the provider's order. */
  async trades(code: string, day: string): Promise<ApiTrade[]> {
    const out: ApiTrade[] = [];
    for (let page = 1; ; page++) {
      const path = `/v1/securities/${encodeURIComponent(code)}/trades?date=${day}&page=${page}&pageSize=${TRADES_PAGE_SIZE}`;
      const body = await this.json(path, TradesPageSchema, code, day);
      out.push(...body.data);
      if (!body.paging.next || body.data.length === 0) break;
    }
    return out;
  }

  /**
   * A GET of the provider's JSON, checked against its shape; a failure as this service's error (`failure`),
   * with the machine-readable reason of its error body (the platform's error keeps only the message).
   */
  private async json<S extends z.ZodTypeAny>(
    path: string,
    schema: S,
    code?: string,
    day?: string,
  ): Promise<z.output<S>> {
    let reason: string | undefined;
    try {
      this.requests += 1;
      const url = `${this.options.baseUrl}${path}`;
      return (
        await vendorJson(this.http, url, schema, {
          method: 'GET',
          vendorMessage: (body) => {
            reason = ErrorReasonSchema.safeParse(body).data?.error.reason;
            return vendorMessageOf(body);
          },
        })
      ).body;
    } catch (error) {
      throw error instanceof VendorError ? failure(error, { code, day, reason }) : error;
    }
  }
}

/** The provider's message in an error body (`{ error: { message } }`), or its text. */
function vendorMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 200);
  const said = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
  return said.data?.error.message;
}

/** What the failed request was about: its security and day, and the provider's error reason. */
export interface FailureContext {
  code?: string;
  day?: string;
  reason?: string;
}

/**
 * The provider's failure as this service's error, decided once: a day not published yet (404 with the
 * reason `not_published_yet`) is TradesNotPublishedError, any other 404 of a security UnknownSecurityError, a
 * refused request (400) BAD_REQUEST, anything else SERVICE_UNAVAILABLE saying what happened. The provider's
 * own words (its error body) never reach staff: such a message names a reference instead, under which the
 * detail is logged (vendorErrorReference). The adapter has retried already (FINAL).
 */
export function failure(error: VendorError, { code, day, reason }: FailureContext = {}): AppError {
  if (error.kind === 'not-found' && code && day && reason === NOT_PUBLISHED_YET)
    return new TradesNotPublishedError(code, day);
  if (error.kind === 'not-found' && code) return new UnknownSecurityError(code);
  // Our own words (the guard, no answer, an answer out of its described shape) may be shown as they are.
  if (error.kind === 'invalid-answer')
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `The market-data provider's answer could not be used: ${error.message}`,
      FINAL,
    );
  if (error.status === null)
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `The market-data provider could not be reached: ${error.message}`,
      FINAL,
    );
  const reference = vendorErrorReference(error, { code, day });
  if (error.kind === 'refused' && error.status === 400)
    return new AppError(
      ErrorCode.BadRequest,
      `The market-data provider refused the request (reference ${reference})`,
      FINAL,
    );
  const wait =
    error.status === 429 && error.retryAfterMs !== undefined
      ? Math.ceil(error.retryAfterMs / 1000)
      : undefined;
  return new AppError(
    ErrorCode.ServiceUnavailable,
    `The market-data provider answered ${error.status} (reference ${reference})${wait !== undefined ? ` (try again in ${wait} seconds)` : ''}`,
    FINAL,
  );
}
