import {
  AppError,
  createLogger,
  VendorHttpClient,
  VendorResponse,
  VendorUnavailableError,
} from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { z } from 'zod';
import {
  accountingErrorMessage,
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
const InvoicesPageSchema = z.object({ Invoices: z.array(z.unknown()).default([]) });
const RepeatingSchema = z.object({ RepeatingInvoices: z.array(z.unknown()).default([]) });
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
    // An ISO date-time without zone is UTC to the API; to the millisecond, so a batch changed within one
    // second is not read again by the next sync (the API's change dates carry milliseconds too).
    if (modifiedSince) headers['if-modified-since'] = modifiedSince.toISOString().slice(0, 23);
    const res = await this.call('GET', `/Invoices?page=${page}&summaryOnly=true`, { headers });
    const body = InvoicesPageSchema.parse(this.json(res));
    return body.Invoices.flatMap((raw) => {
      const parsed = ApiInvoiceSchema.safeParse(raw);
      if (!parsed.success)
        log.warn({ problem: parsed.error.issues[0]?.message }, 'an invoice could not be read; skipped');
      return parsed.success ? [parsed.data] : [];
    });
  }

  async repeatingInvoices(): Promise<ApiRepeatingInvoice[]> {
    const res = await this.call('GET', '/RepeatingInvoices');
    return RepeatingSchema.parse(this.json(res)).RepeatingInvoices.flatMap((raw) => {
      const parsed = ApiRepeatingInvoiceSchema.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** A new contact; the API's duplicate-name refusal comes back as BAD_REQUEST with its message. */
  async createContact(contact: { name: string; email: string }): Promise<string> {
    const res = await this.call('PUT', '/Contacts', {
      body: { Contacts: [{ Name: contact.name, ...(contact.email ? { EmailAddress: contact.email } : {}) }] },
      retry: false,
    });
    return ContactsSchema.parse(this.json(res)).Contacts[0]!.ContactID.toLowerCase();
  }

  /** A yearly repeating sales invoice, amounts exclusive of GST with the GST tax type (OUTPUT). */
  async createRepeatingInvoice(input: NewRepeatingInvoice): Promise<ApiRepeatingInvoice> {
    const res = await this.call('PUT', '/RepeatingInvoices', {
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
    const created = RepeatingSchema.parse(this.json(res)).RepeatingInvoices[0];
    return ApiRepeatingInvoiceSchema.parse(created);
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

  private async call(
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    options: {
      headers?: Record<string, string>;
      body?: unknown;
      retry?: boolean;
      maxResponseBytes?: number;
    } = {},
    renewed = false,
  ): Promise<VendorResponse> {
    const token = await this.accessToken();
    let res: VendorResponse;
    try {
      this.requests += 1;
      res = await this.api.request(`${this.options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(this.options.tenantId ? { 'xero-tenant-id': this.options.tenantId } : {}),
          ...options.headers,
        },
        body: options.body,
        retry: options.retry,
        maxResponseBytes: options.maxResponseBytes,
      });
    } catch (error) {
      throw unavailable(error);
    }
    if (res.status === 401 && !renewed) {
      // Revoked or expired early: one new token, one more try.
      this.token = undefined;
      return this.call(method, path, options, true);
    }
    if (res.status >= 200 && res.status < 300) return res;
    const message = accountingErrorMessage(res.status, res.body.toString('utf8'));
    if (res.status === 400) throw new AppError(ErrorCode.BadRequest, message);
    if (res.status === 404)
      throw new AppError(
        ErrorCode.NotFound,
        `The accounting system has no such record (${path.split('?')[0]})`,
      );
    if (res.status === 429) {
      const after = res.headers['retry-after'];
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        `The accounting system's request limit was reached (${message}); try again${after ? ` in ${after} seconds` : ' later'}`,
        FINAL,
      );
    }
    if (res.status === 401 || res.status === 403)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        `The accounting system refused our credentials: ${message}`,
        FINAL,
      );
    throw new AppError(
      ErrorCode.ServiceUnavailable,
      `The accounting system answered ${res.status}: ${message}`,
      FINAL,
    );
  }

  private json(res: VendorResponse): unknown {
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The accounting system answered something that is not JSON',
        FINAL,
      );
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
    let res: VendorResponse;
    try {
      res = await this.identity.request(this.options.tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
    } catch (error) {
      throw unavailable(error);
    }
    if (res.status !== 200)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        `The accounting system refused a token: ${accountingErrorMessage(res.status, res.body.toString('utf8'))}`,
        FINAL,
      );
    const parsed = TokenSchema.safeParse(this.jsonOrNull(res));
    if (!parsed.success)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The accounting system answered a token request without a token',
        FINAL,
      );
    const lifetime = parsed.data.expires_in * 1000;
    this.token = {
      value: parsed.data.access_token,
      renewAt: this.now() + Math.max(lifetime - TOKEN_RENEW_BEFORE_MS, lifetime / 2),
    };
    return this.token.value;
  }

  private jsonOrNull(res: VendorResponse): unknown {
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      return null;
    }
  }
}

function unavailable(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const detail =
    error instanceof VendorUnavailableError || error instanceof Error ? error.message : String(error);
  return new AppError(
    ErrorCode.ServiceUnavailable,
    `The accounting system could not be reached: ${detail}`,
    FINAL,
  );
}
