import {
  AppError,
  createLogger,
  vendorCall,
  VendorCallOptions,
  VendorError,
  vendorErrorReference,
  VendorHttpClient,
  vendorJson,
  VendorResponse,
} from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { z } from 'zod';
import {
  accountingMessage,
  ApiInvoice,
  ApiInvoiceSchema,
  ApiRepeatingInvoice,
  ApiRepeatingInvoiceSchema,
} from './accounting-rules';

const log = createLogger('accounting-client');

/**
 * The adapter has already tried the system as often and as patiently as it allows: an outage it reports
 * is not tried again by the handler (the caller hears at once, not at its deadline).
 */
const FINAL = { final: true } as const;

/** Invoices per page of `GET /Invoices` (the API's fixed page size). */
export const INVOICE_PAGE_SIZE = 100;
/** A token is renewed this long before it expires. */
const TOKEN_RENEW_BEFORE_MS = 60_000;

export interface AccountingClientOptions {
  /** The Accounting API's base (…/api.xro/2.0). */
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Sent as xero-tenant-id when set. */
  tenantId: string;
  timeoutMs: number;
  maxConcurrent: number;
  perMinute: number;
  maxRetryAfterMs: number;
}

export interface NewRepeatingInvoice {
  contactId: string;
  reference: string;
  description: string;
  /** Dollars excluding GST. */
  unitAmount: number;
  accountCode: string;
  /** First invoice date (ISO day). */
  startDate: string;
  /** Days after the bill date the invoice is due. */
  dueDays: number;
}

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });
// The list is required: a reply without it is not an empty page (read as one, a sync would end there having
// read nothing), so it is an `invalid-answer` naming the field. Each element is read by its own schema.
const InvoicesPageSchema = z.object({ Invoices: z.array(z.unknown()) });
const RepeatingSchema = z.object({ RepeatingInvoices: z.array(z.unknown()) });
const ContactsSchema = z.object({ Contacts: z.array(z.object({ ContactID: z.string() })).min(1) });

/**
 * The adapter of a Xero-type Accounting API: a client-credentials token kept and renewed before it expires
 * (and once more on a 401), the API's limits kept on our side (5 at once, 60 a minute on the platform's
 * vendor client) with a 429's Retry-After honoured, and each answer read into this service's terms. Errors:
 * the API's validation message as BAD_REQUEST, a missing resource as NOT_FOUND, anything that means the
 * system could not serve us (unreachable, slow, limits, auth) as SERVICE_UNAVAILABLE with its message.
 */
export class AccountingClient {
  private readonly api: VendorHttpClient;
  private readonly identity: VendorHttpClient;
  private token?: { value: string; renewAt: number };
  private pendingToken?: Promise<string>;
  /** Requests made (the benchmark and tests count them). */
  requests = 0;

  constructor(
    private readonly options: AccountingClientOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.api = new VendorHttpClient({
      vendor: 'invoicing:accounting',
      baseUrls: [options.baseUrl],
      timeoutMs: options.timeoutMs,
      maxConcurrent: options.maxConcurrent,
      perMinute: options.perMinute,
      maxAttempts: 4,
      maxRetryAfterMs: options.maxRetryAfterMs,
      headers: { accept: 'application/json' },
    });
    this.identity = new VendorHttpClient({
      vendor: 'invoicing:accounting-identity',
      baseUrls: [options.tokenUrl],
      timeoutMs: options.timeoutMs,
      maxConcurrent: 2,
    });
  }

  /** One page (1-based) of sales invoices, those changed after `modifiedSince` when given. */
  async invoices(page: number, modifiedSince?: Date | null): Promise<ApiInvoice[]> {
    const headers: Record<string, string> = {};
    // An RFC 3339 date-time as Xero's description publishes it (`2020-02-06T12:17:43.202-08:00`, so with its
    // zone); to the millisecond, so a batch changed within one second is not read again by the next sync
    // (the API's change dates carry milliseconds too).
    if (modifiedSince) headers['if-modified-since'] = modifiedSince.toISOString();
    const body = await this.json('GET', `/Invoices?page=${page}&summaryOnly=true`, InvoicesPageSchema, {
      headers,
    });
    return body.Invoices.flatMap((raw) => {
      const parsed = ApiInvoiceSchema.safeParse(raw);
      if (!parsed.success)
        log.warn({ problem: parsed.error.issues[0]?.message }, 'an invoice could not be read; skipped');
      return parsed.success ? [parsed.data] : [];
    });
  }

  async repeatingInvoices(): Promise<ApiRepeatingInvoice[]> {
    const body = await this.json('GET', '/RepeatingInvoices', RepeatingSchema);
    return body.RepeatingInvoices.flatMap((raw) => {
      const parsed = ApiRepeatingInvoiceSchema.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** A new contact; the API's duplicate-name refusal comes back as BAD_REQUEST with its message. */
  async createContact(contact: { name: string; email: string }): Promise<string> {
    const body = await this.json('PUT', '/Contacts', ContactsSchema, {
      body: { Contacts: [{ Name: contact.name, ...(contact.email ? { EmailAddress: contact.email } : {}) }] },
      retry: false,
    });
    return body.Contacts[0]!.ContactID.toLowerCase();
  }

  /** A yearly repeating sales invoice, amounts exclusive of GST with the GST tax type (OUTPUT). */
  async createRepeatingInvoice(input: NewRepeatingInvoice): Promise<ApiRepeatingInvoice> {
    const body = await this.json('PUT', '/RepeatingInvoices', RepeatingSchema, {
      body: {
        RepeatingInvoices: [
          {
            Type: 'ACCREC',
            Contact: { ContactID: input.contactId },
            Reference: input.reference,
            Status: 'AUTHORISED',
            LineAmountTypes: 'Exclusive',
            Schedule: {
              Period: 12,
              Unit: 'MONTHLY',
              DueDate: input.dueDays,
              DueDateType: 'DAYSAFTERBILLDATE',
              StartDate: `${input.startDate}T00:00:00`,
            },
            LineItems: [
              {
                Description: input.description,
                Quantity: 1,
                UnitAmount: input.unitAmount,
                AccountCode: input.accountCode,
                TaxType: 'OUTPUT',
              },
            ],
          },
        ],
      },
      retry: false,
    });
    const created = ApiRepeatingInvoiceSchema.safeParse(body.RepeatingInvoices[0]);
    if (!created.success)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The accounting system answered a repeating invoice it did not describe',
        FINAL,
      );
    return created.data;
  }

  /** The invoice as the accounting system renders it. */
  async invoicePdf(invoiceId: string): Promise<Buffer> {
    const res = await this.call('GET', `/Invoices/${encodeURIComponent(invoiceId)}`, {
      headers: { accept: 'application/pdf' },
      maxResponseBytes: 20 * 1024 * 1024,
    });
    const type = String(res.headers['content-type'] ?? '');
    if (!type.includes('application/pdf') || res.body.subarray(0, 5).toString('latin1') !== '%PDF-')
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The accounting system did not answer with a PDF',
        FINAL,
      );
    return res.body;
  }

  /** A JSON call, its body checked against the API's shape (`call`'s failures, `invalid-answer` included). */
  private async json<S extends z.ZodTypeAny>(
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
    return this.authorised(path, options, false, (url, request) =>
      vendorJson(this.api, url, schema, { ...request, method }).then((r) => r.body),
    );
  }

  /** A call to the API with the current token; the answer's bytes (a PDF). */
  private call(
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    options: CallOptions = {},
  ): Promise<VendorResponse> {
    return this.authorised(path, options, false, (url, request) =>
      vendorCall(this.api, url, { ...request, method }),
    );
  }

  /**
   * Runs `send` with the token and tenant headers; a 401 (revoked or expired early) renews the token once
   * and tries once more; any other failure becomes this service's error (`failure`).
   */
  private async authorised<T>(
    path: string,
    options: CallOptions,
    renewed: boolean,
    send: (url: string, request: VendorCallOptions) => Promise<T>,
  ): Promise<T> {
    const token = await this.accessToken();
    try {
      this.requests += 1;
      return await send(`${this.options.baseUrl}${path}`, {
        ...options,
        headers: {
          authorization: `Bearer ${token}`,
          ...(this.options.tenantId ? { 'xero-tenant-id': this.options.tenantId } : {}),
          ...options.headers,
        },
        vendorMessage: accountingMessage,
      });
    } catch (error) {
      if (error instanceof VendorError && error.status === 401 && !renewed) {
        // Only the token refused is dropped: calls refused together, or one refused after another call
        // already renewed it, share one new token rather than each asking for its own.
        if (this.token?.value === token) this.token = undefined;
        return this.authorised(path, options, true, send);
      }
      throw error instanceof VendorError ? failure(error, path) : error;
    }
  }

  /** The current token, renewed (once, whoever asks) when it is about to expire. */
  private accessToken(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.pendingToken ??= this.fetchToken().finally(() => (this.pendingToken = undefined));
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    let token: z.output<typeof TokenSchema>;
    try {
      ({ body: token } = await vendorJson(this.identity, this.options.tokenUrl, TokenSchema, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
        vendorMessage: accountingMessage,
      }));
    } catch (error) {
      if (!(error instanceof VendorError)) throw error;
      if (error.kind === 'invalid-answer' && error.status === 200)
        throw new AppError(
          ErrorCode.ServiceUnavailable,
          'The accounting system answered a token request without a token',
          FINAL,
        );
      if (error.status === null) throw failure(error, this.options.tokenUrl);
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        `The accounting system refused a token (reference ${vendorErrorReference(error)})`,
        FINAL,
      );
    }
    const lifetime = token.expires_in * 1000;
    this.token = {
      value: token.access_token,
      renewAt: this.now() + Math.max(lifetime - TOKEN_RENEW_BEFORE_MS, lifetime / 2),
    };
    return this.token.value;
  }
}

type CallOptions = Pick<VendorCallOptions, 'headers' | 'body' | 'retry' | 'maxResponseBytes'>;

/**
 * The accounting system's failure as this service's error, decided once: a refused request (400) is
 * BAD_REQUEST, a missing record NOT_FOUND; a reached request limit, refused credentials, an outage or an
 * answer it does not describe SERVICE_UNAVAILABLE, which the handler does not retry (FINAL). Its own words
 * (an error body) never reach staff: such a message names a reference instead, under which the detail is
 * logged (vendorErrorReference).
 */
function failure(error: VendorError, path: string): AppError {
  if (error.kind === 'not-found')
    return new AppError(
      ErrorCode.NotFound,
      `The accounting system has no such record (${path.split('?')[0]})`,
    );
  // Our own words (the guard, no answer, an answer out of its described shape) may be shown as they are.
  if (error.status === null)
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `The accounting system could not be reached: ${error.message}`,
      FINAL,
    );
  if (error.kind === 'invalid-answer')
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `The accounting system's answer could not be used: ${error.message}`,
      FINAL,
    );
  const reference = vendorErrorReference(error, { path: path.split('?')[0] });
  if (error.status === 400)
    return new AppError(
      ErrorCode.BadRequest,
      `The accounting system refused the request (reference ${reference})`,
    );
  if (error.status === 429) {
    const after = error.retryAfterMs === undefined ? undefined : Math.ceil(error.retryAfterMs / 1000);
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `The accounting system's request limit was reached (reference ${reference}); try again${after !== undefined ? ` in ${after} seconds` : ' later'}`,
      FINAL,
    );
  }
  if (error.status === 401 || error.status === 403)
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `The accounting system refused our credentials (reference ${reference})`,
      FINAL,
    );
  return new AppError(
    ErrorCode.ServiceUnavailable,
    `The accounting system answered ${error.status} (reference ${reference})`,
    FINAL,
  );
}
