import { randomBytes, randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { DEMO_ACCOUNTING_CLIENT, escapeHtml } from '@irp/proto';
import { z } from 'zod';
import {
  ErrorAnswer,
  FaultRuleInput,
  FaultRules,
  HttpError,
  RouteContext,
  StandInRoute,
  parseWith,
  readJson,
  readText,
  sendJson,
  sendText,
  startStandInServer,
} from '../kit';
import {
  ContactView,
  DUE_DATE_TYPES,
  InvoiceView,
  LINE_AMOUNT_TYPES,
  RepeatingInvoiceView,
  SCHEDULE_UNITS,
  StoredContact,
  StoredInvoice,
  StoredRepeatingInvoice,
  TAX_TYPES,
  contactView,
  dollars,
  dueDateOf,
  invoiceView,
  isoDay,
  nameGuid,
  nextRun,
  nextScheduledDate,
  parseXeroDate,
  repeatingInvoiceView,
  startOfUtcDay,
  toTenThousandths,
  totalsOf,
  xeroDate,
} from './accounting-model';
import { demoAccountingData, invoiceNumber, syntheticContact, syntheticInvoice } from './demo-accounting';
import { buildInvoicePdf } from './invoice-pdf';
import { RateLimits, TenantLimits, TenantUsage, XERO_LIMITS } from './rate-limits';

/**
 * A local stand-in of a Xero-type accounting API (vendor-apis.md, "Accounting system"), on 127.0.0.1: the
 * identity server's client-credentials token (`POST /connect/token`, Basic client id and secret, tokens that
 * expire) and the Accounting API under `/api.xro/2.0` (Invoices paged by 100 and filtered by
 * If-Modified-Since, an invoice's JSON or PDF, RepeatingInvoices read and created with GST computed in
 * cents, Contacts created with Xero's duplicate-name error), with Xero's error bodies and its limits per
 * tenant (5 open, 60 a minute, 5,000 a day: 429 with Retry-After beyond, the remaining counts on every
 * answer). The demo organisation (demo-accounting.ts) dates itself from a "today" given at start. Controls
 * under `/standin/` reset it, seed benchmark invoices, pay invoices, run schedules, move the clock, expire
 * the tokens issued and hold requests; the kit's faults apply per route (`token` in group `identity`; `invoices`, `invoice`,
 * `repeating-invoices`, `contacts` in group `api`), before the limits, as a slow network would.
 */

export const TOKEN_PATH = '/connect/token';
export const API_BASE = '/api.xro/2.0';

/** The custom connection `make up` and the tests use (proto's, so the invoicing service's demo config agrees). */
export { DEMO_ACCOUNTING_CLIENT };

const TOKEN_TTL_SECONDS = 1800;
const PROVIDER_NAME = 'IR Portal';
/** The longest one request is held (`/standin/hold`): a test that forgets to release does not hang. */
const MAX_HOLD_MS = 60_000;

export interface AccountingStandInOptions {
  /** 0 (default) = any free port. */
  port?: number;
  host?: string;
  /** The connection's client id, secret and organisation (default DEMO_ACCOUNTING_CLIENT). */
  client?: { clientId: string; clientSecret: string; tenantId: string };
  /** How long an access token lives (default 1800, Xero's); `expires_in` says it. */
  tokenTtlSeconds?: number;
  /**
   * The day the demo data counts back from (YYYY-MM-DD, or a Date whose UTC day is taken); default the
   * clock's UTC day, taken again at each reset.
   */
  today?: string | Date;
  /** False: an organisation without contacts or invoices (tests seed their own). Default true. */
  demo?: boolean;
  /** The clock of tokens, limits and UpdatedDateUTC (tests); advance() and `/standin/clock` move it on. */
  now?: () => Date;
  /** Limits per tenant (default Xero's: 5 open, 60 a minute, 5,000 a day). */
  limits?: Partial<RateLimits>;
  /** Fault rules set at start (the kit's; main.ts reads STANDIN_FAULTS). */
  faults?: FaultRuleInput[];
}

export interface SeedInvoicesInput {
  count: number;
  /** Synthetic stocks the References cycle over (`SYN-00001`...); default 2,000 (the benchmark's). */
  stocks?: number;
  /** One Reference for all of them instead. */
  reference?: string;
}

export interface SeedInvoicesResult {
  created: number;
  /** Invoices held now. */
  total: number;
  first: string | null;
  last: string | null;
}

export interface AccountingStandIn {
  url: string;
  port: number;
  /** `{url}/api.xro/2.0`, the Accounting API's base; the token is `{url}/connect/token`. */
  apiUrl: string;
  client: { clientId: string; clientSecret: string; tenantId: string };
  /** The day the demo data counts from (YYYY-MM-DD). */
  today(): string;
  /** The stand-in's clock (the injected one, moved on by advance()). */
  now(): Date;
  /** What it holds, in the API's shapes (invoices in number order, with their lines). */
  invoices(): InvoiceView[];
  contacts(): ContactView[];
  repeatingInvoices(): RepeatingInvoiceView[];
  /** Adds `count` deterministic benchmark invoices, updated now. */
  seedInvoices(input: SeedInvoicesInput): SeedInvoicesResult;
  /** Records a payment (default the amount due) on an invoice by id or number; it is updated now. */
  pay(invoice: string, amountCents?: number): InvoiceView;
  /** Raises a repeating invoice's next invoice and moves its NextScheduledDate on. */
  runRepeatingInvoice(id: string): InvoiceView;
  /** Back to the demo data (or none) and fresh limits; tokens and the clock are kept. */
  reset(today?: string): void;
  /** Moves the clock on (tokens expire, limit windows pass). */
  advance(ms: number): void;
  /** Expires every token issued so far now (Xero's TokenExpired 401 on its next use); new ones are issued. */
  expireTokens(): void;
  /** Holds API requests inside the limits (each holds a slot) until released: a slow vendor. */
  hold(on: boolean): void;
  /** API requests open now (all tenants). */
  openRequests(): number;
  usage(): TenantUsage[];
  /** Requests received (the kit's counts): all, or those of a route name or group (`api`, `identity`). */
  requests(route?: string): number;
  /** The kit's fault rules. */
  faults: FaultRules;
  close(): Promise<void>;
}

/** A bare page of the stand-in's "web app": a title and a table of fields, every value escaped. */
function webPage(res: ServerResponse, title: string, rows: Array<[string, string]>): void {
  const cells = rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('');
  sendText(
    res,
    200,
    `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><table>${cells}</table>`,
    'text/html; charset=utf-8',
  );
}

/** Xero's 400 with the elements sent and what is wrong with each. */
class ValidationException extends HttpError {
  constructor(readonly elements: Array<Record<string, unknown>>) {
    super(400, 'A validation exception occurred', 10);
  }

  get body() {
    return { ErrorNumber: 10, Type: 'ValidationException', Message: this.message, Elements: this.elements };
  }
}

const invalid = (message: string, element: unknown = {}) =>
  new ValidationException([
    { ...(isObject(element) ? element : {}), ValidationErrors: [{ Message: message }] },
  ]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A batch with any element's problems is refused whole: Xero's ValidationException, each element with its messages. */
function throwIfInvalid(checked: ReadonlyArray<{ element: unknown; messages: string[] }>): void {
  const wrong = checked.filter((c) => c.messages.length);
  if (wrong.length)
    throw new ValidationException(
      wrong.map((c) => ({
        ...(isObject(c.element) ? c.element : {}),
        ValidationErrors: c.messages.map((Message) => ({ Message })),
      })),
    );
}

const TITLES: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The problems zod finds in an element, as Xero's ValidationErrors messages. */
function problemsOf<T extends z.ZodTypeAny>(
  schema: T,
  value: unknown,
): { data: z.infer<T> | undefined; messages: string[] } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { data: parsed.data, messages: [] };
  return {
    data: undefined,
    messages: parsed.error.issues.map((i) => `${i.path.join('.') || 'element'}: ${i.message}`),
  };
}

const dateInput = z
  .string()
  .refine((v) => parseXeroDate(v) !== undefined, 'must be a date: /Date(<ms>+0000)/ or YYYY-MM-DD');
const decimal = z
  .number()
  .refine((v) => toTenThousandths(v) !== undefined, 'must be a number with at most 4 decimal places');
const lineItemSchema = z.object({
  Description: z.string().trim().min(1, 'Description is required'),
  Quantity: decimal,
  UnitAmount: decimal,
  AccountCode: z.string().trim().min(1, 'AccountCode is required'),
  TaxType: z.enum(TAX_TYPES),
});
const repeatingInvoiceSchema = z.object({
  Type: z.literal('ACCREC'),
  Contact: z.object({ ContactID: z.string().trim().min(1) }),
  Reference: z.string().max(255).default(''),
  Schedule: z.object({
    Period: z.number().int().min(1).max(120),
    Unit: z.enum(SCHEDULE_UNITS),
    DueDate: z.number().int().min(0).max(366),
    DueDateType: z.enum(DUE_DATE_TYPES),
    StartDate: dateInput,
    EndDate: dateInput.optional(),
  }),
  Status: z.enum(['DRAFT', 'AUTHORISED']),
  LineAmountTypes: z.enum(LINE_AMOUNT_TYPES),
  LineItems: z.array(lineItemSchema).min(1, 'at least one line item is required'),
});
const contactSchema = z.object({
  Name: z.string().trim().min(1, 'Contact name is required').max(255),
  EmailAddress: z.union([z.literal(''), z.string().trim().email('Email address must be valid.')]).optional(),
});
const batchOf = (key: string) => z.object({ [key]: z.array(z.unknown()).min(1) });

const seedSchema = z.object({
  count: z.number().int().min(1).max(100_000),
  stocks: z.number().int().min(1).max(100_000).default(2000),
  reference: z.string().trim().min(1).max(255).optional(),
});
const paySchema = z.object({ amount: decimal.refine((v) => v > 0, 'must be positive').optional() });
const clockSchema = z.object({
  advanceSeconds: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86_400),
});
const holdSchema = z.object({ on: z.boolean() });
const resetSchema = z.object({
  today: z
    .string()
    .regex(/^\d{4}-\d\d-\d\d$/, 'today must be YYYY-MM-DD')
    .optional(),
});

/** If-Modified-Since as Xero takes it: an HTTP date, or ISO `2009-11-12T00:00:00` (UTC when it has no zone). */
function ifModifiedSince(req: IncomingMessage): number | undefined {
  const value = req.headers['if-modified-since']?.trim();
  if (!value) return undefined;
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new HttpError(400, `If-Modified-Since is not a date: ${value}`);
  return ms;
}

/** A positive integer query parameter, or the default. */
const intParam = (query: URLSearchParams, name: string, fallback: number, max: number) => {
  const n = Math.floor(Number(query.get(name)));
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : fallback;
};
const listParam = (query: URLSearchParams, name: string) =>
  query
    .get(name)
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export async function startAccountingStandIn(
  options: AccountingStandInOptions = {},
): Promise<AccountingStandIn> {
  const client = options.client ?? DEMO_ACCOUNTING_CLIENT;
  const tokenTtlSeconds = options.tokenTtlSeconds ?? TOKEN_TTL_SECONDS;
  const clock = options.now ?? (() => new Date());
  let offsetMs = 0;
  const now = () => clock().getTime() + offsetMs;
  const limits = new TenantLimits({ ...XERO_LIMITS, ...options.limits }, now);
  const tokens = new Map<string, { tenantId: string; expiresMs: number }>();

  // ---- The organisation ----
  let todayMs = 0;
  const contacts = new Map<string, StoredContact>();
  const invoices = new Map<string, StoredInvoice>();
  const byNumber = new Map<string, StoredInvoice>();
  const repeating = new Map<string, StoredRepeatingInvoice>();
  let lastNumber = 0;
  let lastSynthetic = 0;
  /** Invoices by UpdatedDateUTC, then InvoiceID: the order the API pages in (rebuilt after a change). */
  let paged: StoredInvoice[] | null = null;

  const todayOf = (value: string | Date | undefined): number => {
    if (value === undefined) return startOfUtcDay(now());
    const ms = typeof value === 'string' ? parseXeroDate(value) : startOfUtcDay(value.getTime());
    if (ms === undefined || Number.isNaN(ms)) throw new Error(`today: not a date: ${String(value)}`);
    return ms;
  };
  const store = (invoice: StoredInvoice) => {
    invoices.set(invoice.id, invoice);
    byNumber.set(invoice.number.toUpperCase(), invoice);
    paged = null;
  };
  const load = (today: string | Date | undefined) => {
    todayMs = todayOf(today);
    contacts.clear();
    invoices.clear();
    byNumber.clear();
    repeating.clear();
    paged = null;
    lastSynthetic = 0;
    if (options.demo === false) {
      lastNumber = 0;
      return;
    }
    const data = demoAccountingData(todayMs);
    for (const c of data.contacts) contacts.set(c.id, c);
    for (const r of data.repeatingInvoices) repeating.set(r.id, r);
    for (const i of data.invoices) store(i);
    lastNumber = data.invoices.length;
  };
  load(options.today);

  const invoiceOf = (idOrNumber: string) =>
    invoices.get(idOrNumber.toLowerCase()) ?? byNumber.get(idOrNumber.toUpperCase());
  const viewOf = (invoice: StoredInvoice, withLines = true) =>
    invoiceView(invoice, contacts.get(invoice.contactId), withLines);
  const repeatingViewOf = (r: StoredRepeatingInvoice) => repeatingInvoiceView(r, contacts.get(r.contactId));
  const sortedInvoices = () =>
    (paged ??= [...invoices.values()].sort(
      (a, b) => a.updatedMs - b.updatedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    ));
  const envelope = (body: Record<string, unknown>) => ({
    Status: 'OK',
    ProviderName: PROVIDER_NAME,
    DateTimeUTC: xeroDate(now()),
    ...body,
  });

  // ---- Tokens ----
  const issueToken = async (req: IncomingMessage, res: ServerResponse) => {
    const form = new URLSearchParams(await readText(req));
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const pair = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
    const colon = pair.indexOf(':');
    if (
      colon < 0 ||
      pair.slice(0, colon) !== client.clientId ||
      pair.slice(colon + 1) !== client.clientSecret
    )
      return sendJson(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') !== 'client_credentials')
      return sendJson(res, 400, { error: 'unsupported_grant_type' });
    const at = now();
    for (const [token, held] of tokens) if (held.expiresMs <= at) tokens.delete(token);
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, { tenantId: client.tenantId, expiresMs: at + tokenTtlSeconds * 1000 });
    sendJson(res, 200, {
      access_token: token,
      expires_in: tokenTtlSeconds,
      token_type: 'Bearer',
      scope: form.get('scope') ?? 'accounting.transactions accounting.contacts',
    });
  };

  /** A token expired early or mid-sync, as a client must survive (the clock is not moved). */
  const expireTokens = () => {
    const at = now();
    for (const held of tokens.values()) held.expiresMs = Math.min(held.expiresMs, at);
  };

  /** The tenant of a request's bearer token; 401 without a live one, 403 for another tenant's id. */
  const authenticate = (req: IncomingMessage): string => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const token = bearer ? tokens.get(bearer[1]) : undefined;
    if (!token) throw new HttpError(401, 'AuthenticationUnsuccessful');
    if (now() >= token.expiresMs)
      throw new HttpError(401, `TokenExpired: token expired at ${new Date(token.expiresMs).toISOString()}`);
    const tenantHeader = req.headers['xero-tenant-id'];
    if (tenantHeader !== undefined && String(tenantHeader).toLowerCase() !== token.tenantId.toLowerCase())
      throw new HttpError(403, 'AuthorizationUnsuccessful');
    return token.tenantId;
  };

  // ---- Holding requests inside the limits ----
  let holding = false;
  const heldRequests = new Set<() => void>();
  const waitWhileHeld = (res: ServerResponse) =>
    new Promise<void>((resolve) => {
      if (!holding) return resolve();
      const done = () => {
        clearTimeout(timer);
        heldRequests.delete(done);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, MAX_HOLD_MS);
      heldRequests.add(done);
      res.once('close', done);
    });
  const hold = (on: boolean) => {
    holding = on;
    if (!on) for (const done of [...heldRequests]) done();
  };
  let closing = false;

  /** An Accounting API call: authenticated, admitted by the tenant's limits, then answered. */
  const apiCall =
    (handle: (ctx: RouteContext) => unknown) =>
    async (ctx: RouteContext): Promise<void> => {
      const tenantId = authenticate(ctx.req);
      const admission = limits.admit(tenantId);
      ctx.res.setHeader('X-MinLimit-Remaining', String(admission.minuteRemaining));
      ctx.res.setHeader('X-DayLimit-Remaining', String(admission.dayRemaining));
      if (!admission.admitted) {
        ctx.res.setHeader('Retry-After', String(admission.retryAfterSeconds));
        ctx.res.setHeader('X-Rate-Limit-Problem', admission.problem);
        throw new HttpError(
          429,
          admission.problem === 'concurrent'
            ? `More than ${limits.limits.concurrent} requests open at once for this tenant`
            : `Rate limit exceeded: ${admission.problem === 'minute' ? `${limits.limits.perMinute} a minute` : `${limits.limits.perDay} a day`}`,
        );
      }
      try {
        await waitWhileHeld(ctx.res);
        if (closing || ctx.res.destroyed) return;
        await handle(ctx);
      } catch (error) {
        if (error instanceof ValidationException) return sendJson(ctx.res, 400, error.body);
        throw error;
      } finally {
        admission.release();
      }
    };

  /** A body that is not JSON is Xero's PostDataInvalidException (ErrorNumber 14). */
  const readBody = async (req: IncomingMessage): Promise<unknown> => {
    try {
      return await readJson(req);
    } catch (error) {
      if (error instanceof HttpError)
        throw new HttpError(400, `JSON for post data was invalid: ${error.message}`, 14);
      throw error;
    }
  };
  /** The elements of a PUT body (`{ Contacts: [...] }`). */
  const elementsOf = async (req: IncomingMessage, key: string): Promise<unknown[]> => {
    const body = await readBody(req);
    const parsed = batchOf(key).safeParse(body);
    if (!parsed.success) throw invalid(`${key}: a list of at least one element is required`);
    return parsed.data[key] as unknown[];
  };
  const refuseUnsupported = (query: URLSearchParams) => {
    for (const name of ['where', 'order'])
      if (query.has(name)) throw invalid(`The stand-in does not support the ${name} parameter`);
  };

  // ---- Accounting API ----
  const listInvoices = ({ req, res, query }: RouteContext) => {
    refuseUnsupported(query);
    const since = ifModifiedSince(req);
    const statuses = listParam(query, 'Statuses')?.map((s) => s.toUpperCase());
    const ids = listParam(query, 'IDs')?.map((s) => s.toLowerCase());
    const numbers = listParam(query, 'InvoiceNumbers')?.map((s) => s.toUpperCase());
    const contactIds = listParam(query, 'ContactIDs')?.map((s) => s.toLowerCase());
    const list = sortedInvoices().filter(
      (i) =>
        (since === undefined || i.updatedMs > since) &&
        (!statuses || statuses.includes(i.status)) &&
        (!ids || ids.includes(i.id)) &&
        (!numbers || numbers.includes(i.number.toUpperCase())) &&
        (!contactIds || contactIds.includes(i.contactId)),
    );
    const summaryOnly = query.get('summaryOnly') === 'true';
    if (!query.has('page'))
      return sendJson(res, 200, envelope({ Invoices: list.map((i) => viewOf(i, false)) }));
    const page = intParam(query, 'page', 1, 1_000_000);
    const pageSize = intParam(query, 'pageSize', 100, 1000);
    const items = list.slice((page - 1) * pageSize, page * pageSize);
    sendJson(
      res,
      200,
      envelope({
        pagination: { page, pageSize, pageCount: Math.ceil(list.length / pageSize), itemCount: list.length },
        Invoices: items.map((i) => viewOf(i, !summaryOnly)),
      }),
    );
  };

  const getInvoice = ({ req, res, params }: RouteContext) => {
    const invoice = invoiceOf(params[0]);
    if (!invoice) throw new HttpError(404, `The resource you're looking for cannot be found`);
    if (!(req.headers.accept ?? '').toLowerCase().includes('application/pdf'))
      return sendJson(res, 200, envelope({ Invoices: [viewOf(invoice)] }));
    const view = viewOf(invoice);
    const money = (cents: number) => dollars(cents).toFixed(2);
    const pdf = buildInvoicePdf({
      invoiceNumber: invoice.number,
      contactName: view.Contact.Name,
      reference: invoice.reference,
      date: isoDay(invoice.dateMs),
      dueDate: isoDay(invoice.dueDateMs),
      status: invoice.status,
      lines: invoice.lines.map((l, i) => ({
        description: `${l.quantity} x ${l.description}`,
        amount: money(invoice.totals.lines[i].amountCents),
      })),
      subTotal: money(invoice.totals.subTotalCents),
      totalTax: money(invoice.totals.totalTaxCents),
      total: money(invoice.totals.totalCents),
      amountDue: view.AmountDue.toFixed(2),
    });
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'content-disposition': `inline; filename="${invoice.number}.pdf"`,
    });
    res.end(pdf);
  };

  const createRepeatingInvoices = async ({ req, res }: RouteContext) => {
    const elements = await elementsOf(req, 'RepeatingInvoices');
    const checked = elements.map((element) => {
      const { data, messages } = problemsOf(repeatingInvoiceSchema, element);
      if (data && !contacts.has(data.Contact.ContactID.toLowerCase()))
        messages.push(`Contact: no contact has the ContactID ${data.Contact.ContactID}`);
      return { element, data, messages };
    });
    throwIfInvalid(checked);
    const today = startOfUtcDay(now());
    const created = checked.map(({ data }) => {
      const input = data!;
      const lines = input.LineItems.map((l) => ({
        description: l.Description,
        quantity: l.Quantity,
        unitAmount: l.UnitAmount,
        accountCode: l.AccountCode,
        taxType: l.TaxType,
      }));
      const schedule = {
        period: input.Schedule.Period,
        unit: input.Schedule.Unit,
        dueDate: input.Schedule.DueDate,
        dueDateType: input.Schedule.DueDateType,
        startDateMs: parseXeroDate(input.Schedule.StartDate)!,
        endDateMs: input.Schedule.EndDate ? parseXeroDate(input.Schedule.EndDate)! : null,
      };
      const r: StoredRepeatingInvoice = {
        id: randomUUID(),
        reference: input.Reference,
        contactId: input.Contact.ContactID.toLowerCase(),
        status: input.Status,
        schedule: { ...schedule, nextScheduledDateMs: nextScheduledDate(schedule, today) },
        lineAmountTypes: input.LineAmountTypes,
        lines,
        totals: totalsOf(lines, input.LineAmountTypes),
      };
      repeating.set(r.id, r);
      return r;
    });
    sendJson(res, 200, envelope({ RepeatingInvoices: created.map(repeatingViewOf) }));
  };

  const createContacts = async ({ req, res }: RouteContext) => {
    const elements = await elementsOf(req, 'Contacts');
    const taken = new Set([...contacts.values()].map((c) => c.name.toLowerCase()));
    const checked = elements.map((element) => {
      const { data, messages } = problemsOf(contactSchema, element);
      if (data) {
        const key = data.Name.toLowerCase();
        if (taken.has(key))
          messages.push(
            `The contact name ${data.Name} is already assigned to another contact. The contact name must be unique across all active contacts.`,
          );
        taken.add(key);
      }
      return { element, data, messages };
    });
    throwIfInvalid(checked);
    const at = now();
    const created = checked.map(({ data }) => {
      const contact: StoredContact = {
        id: randomUUID(),
        name: data!.Name,
        email: data!.EmailAddress ?? '',
        updatedMs: at,
      };
      contacts.set(contact.id, contact);
      return contact;
    });
    sendJson(res, 200, envelope({ Contacts: created.map(contactView) }));
  };

  const listContacts = ({ res, query }: RouteContext) => {
    refuseUnsupported(query);
    const term = query.get('searchTerm')?.trim().toLowerCase();
    const list = [...contacts.values()].filter(
      (c) => !term || c.name.toLowerCase().includes(term) || c.email.toLowerCase().includes(term),
    );
    if (!query.has('page')) return sendJson(res, 200, envelope({ Contacts: list.map(contactView) }));
    const page = intParam(query, 'page', 1, 1_000_000);
    const pageSize = intParam(query, 'pageSize', 100, 1000);
    sendJson(
      res,
      200,
      envelope({ Contacts: list.slice((page - 1) * pageSize, page * pageSize).map(contactView) }),
    );
  };

  // ---- Controls ----
  const seedInvoices = (input: unknown): SeedInvoicesResult => {
    const valid = parseWith(seedSchema, input);
    const at = now();
    let first: string | null = null;
    let last: string | null = null;
    for (let k = 0; k < valid.count; k++) {
      const n = ++lastSynthetic;
      const stock = ((n - 1) % valid.stocks) + 1;
      let contact = contacts.get(syntheticContact(stock, at).id);
      if (!contact) contacts.set((contact = syntheticContact(stock, at)).id, contact);
      const invoice = syntheticInvoice(n, {
        number: invoiceNumber(++lastNumber),
        todayMs,
        updatedMs: at,
        stocks: valid.stocks,
        contactId: contact.id,
        reference: valid.reference,
      });
      store(invoice);
      first ??= invoice.number;
      last = invoice.number;
    }
    return { created: valid.count, total: invoices.size, first, last };
  };

  const pay = (idOrNumber: string, input: unknown) => {
    const invoice = invoiceOf(idOrNumber);
    if (!invoice) throw new HttpError(404, `No invoice ${idOrNumber}`);
    if (invoice.status !== 'AUTHORISED' && invoice.status !== 'SUBMITTED')
      throw new HttpError(
        400,
        `Invoice ${invoice.number} is ${invoice.status}: only an AUTHORISED one is paid`,
      );
    const amount = parseWith(paySchema, input).amount;
    const due = invoice.totals.totalCents - invoice.paidCents;
    const cents = amount === undefined ? due : Math.min(due, Math.round(amount * 100));
    const at = now();
    invoice.paidCents += cents;
    if (invoice.paidCents >= invoice.totals.totalCents) {
      invoice.status = 'PAID';
      invoice.fullyPaidOnMs = startOfUtcDay(at);
    }
    invoice.updatedMs = at;
    paged = null;
    return viewOf(invoice);
  };

  const runRepeatingInvoice = (id: string) => {
    const r = repeating.get(id.toLowerCase());
    if (!r) throw new HttpError(404, `No repeating invoice ${id}`);
    const dateMs = r.schedule.nextScheduledDateMs;
    if (dateMs === null) throw new HttpError(400, `Repeating invoice ${id} has ended`);
    const invoice: StoredInvoice = {
      id: nameGuid(`run:${r.id}:${dateMs}`),
      number: invoiceNumber(++lastNumber),
      reference: r.reference,
      repeatingInvoiceId: r.id,
      contactId: r.contactId,
      dateMs,
      dueDateMs: dueDateOf(dateMs, r.schedule.dueDate, r.schedule.dueDateType),
      status: r.status,
      lineAmountTypes: r.lineAmountTypes,
      lines: r.lines,
      totals: r.totals,
      paidCents: 0,
      fullyPaidOnMs: null,
      updatedMs: now(),
    };
    store(invoice);
    const next = nextRun(r.schedule, dateMs);
    r.schedule.nextScheduledDateMs =
      r.schedule.endDateMs !== null && next > r.schedule.endDateMs ? null : next;
    return viewOf(invoice);
  };

  const reset = (input: unknown) => {
    const today = parseWith(resetSchema, input).today;
    load(today ?? options.today);
    limits.reset();
    hold(false);
    return {
      today: isoDay(todayMs),
      contacts: contacts.size,
      invoices: invoices.size,
      repeatingInvoices: repeating.size,
    };
  };

  /** The vendor's error shapes: the identity server's `{ error }`, the API's Xero bodies, `{ error }` else. */
  const errorBody = (status: number, message: string, code: number, path: string): ErrorAnswer => {
    if (!path.toLowerCase().startsWith(`${API_BASE.toLowerCase()}/`)) return { body: { error: message } };
    if (status === 400)
      return {
        body:
          code === 14
            ? { ErrorNumber: 14, Type: 'PostDataInvalidException', Message: message }
            : new ValidationException([{ ValidationErrors: [{ Message: message }] }]).body,
      };
    return { body: { Title: TITLES[status] ?? 'Error', Status: status, Detail: message } };
  };

  const api = { group: 'api' } as const;
  const control = { faultable: false } as const;
  const apiPath = (rest: string) => new RegExp(`^/api\\.xro/2\\.0/${rest}$`, 'i');
  const routes: StandInRoute[] = [
    {
      method: 'POST',
      path: TOKEN_PATH,
      name: 'token',
      group: 'identity',
      handle: ({ req, res }) => issueToken(req, res),
    },
    { ...api, method: 'GET', path: apiPath('Invoices'), name: 'invoices', handle: apiCall(listInvoices) },
    {
      ...api,
      method: 'GET',
      path: apiPath('Invoices/([^/]+)'),
      name: 'invoice',
      faultKey: ({ params }) => params[0],
      handle: apiCall(getInvoice),
    },
    {
      ...api,
      method: 'GET',
      path: apiPath('RepeatingInvoices'),
      name: 'repeating-invoices',
      handle: apiCall(({ res, query }) => {
        refuseUnsupported(query);
        sendJson(res, 200, envelope({ RepeatingInvoices: [...repeating.values()].map(repeatingViewOf) }));
      }),
    },
    {
      ...api,
      method: 'GET',
      path: apiPath('RepeatingInvoices/([^/]+)'),
      name: 'repeating-invoices',
      handle: apiCall(({ res, params }) => {
        const r = repeating.get(params[0].toLowerCase());
        if (!r) throw new HttpError(404, `The resource you're looking for cannot be found`);
        sendJson(res, 200, envelope({ RepeatingInvoices: [repeatingViewOf(r)] }));
      }),
    },
    {
      ...api,
      method: 'PUT',
      path: apiPath('RepeatingInvoices'),
      name: 'repeating-invoices',
      handle: apiCall(createRepeatingInvoices),
    },
    { ...api, method: 'GET', path: apiPath('Contacts'), name: 'contacts', handle: apiCall(listContacts) },
    {
      ...api,
      method: 'GET',
      path: apiPath('Contacts/([^/]+)'),
      name: 'contacts',
      handle: apiCall(({ res, params }) => {
        const contact = contacts.get(params[0].toLowerCase());
        if (!contact) throw new HttpError(404, `The resource you're looking for cannot be found`);
        sendJson(res, 200, envelope({ Contacts: [contactView(contact)] }));
      }),
    },
    { ...api, method: 'PUT', path: apiPath('Contacts'), name: 'contacts', handle: apiCall(createContacts) },
    {
      ...control,
      method: 'POST',
      path: '/standin/reset',
      name: 'reset',
      handle: async ({ req, res }) => sendJson(res, 200, reset(await readJson(req))),
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/invoices',
      name: 'seed-invoices',
      handle: async ({ req, res }) => sendJson(res, 201, seedInvoices(await readJson(req))),
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/invoices',
      name: 'held-invoices',
      handle: ({ res, query }) => {
        const reference = query.get('reference');
        const list = [...invoices.values()].filter((i) => reference === null || i.reference === reference);
        sendJson(res, 200, { Invoices: list.map((i) => viewOf(i)) });
      },
    },
    {
      ...control,
      method: 'POST',
      path: /^\/standin\/invoices\/([^/]+)\/pay$/,
      name: 'pay',
      handle: async ({ req, res, params }) =>
        sendJson(res, 200, { Invoices: [pay(params[0], await readJson(req))] }),
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/contacts',
      name: 'held-contacts',
      handle: ({ res }) => sendJson(res, 200, { Contacts: [...contacts.values()].map(contactView) }),
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/repeating-invoices',
      name: 'held-repeating-invoices',
      handle: ({ res }) =>
        sendJson(res, 200, { RepeatingInvoices: [...repeating.values()].map(repeatingViewOf) }),
    },
    {
      ...control,
      method: 'POST',
      path: /^\/standin\/repeating-invoices\/([^/]+)\/run$/,
      name: 'run',
      handle: ({ res, params }) => sendJson(res, 201, { Invoices: [runRepeatingInvoice(params[0])] }),
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/clock',
      name: 'clock',
      handle: ({ res }) => sendJson(res, 200, { now: new Date(now()).toISOString(), today: isoDay(todayMs) }),
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/clock',
      name: 'clock',
      handle: async ({ req, res }) => {
        offsetMs += parseWith(clockSchema, await readJson(req)).advanceSeconds * 1000;
        sendJson(res, 200, { now: new Date(now()).toISOString(), today: isoDay(todayMs) });
      },
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/tokens/expire',
      name: 'expire-tokens',
      handle: ({ res }) => {
        expireTokens();
        sendJson(res, 200, { expired: tokens.size });
      },
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/hold',
      name: 'hold',
      handle: async ({ req, res }) => {
        hold(parseWith(holdSchema, await readJson(req)).on);
        sendJson(res, 200, { holding, held: heldRequests.size });
      },
    },
    // The accounting system's web app, as much of it as the portal links to: an invoice, a repeating invoice.
    {
      ...control,
      method: 'GET',
      path: /^\/AccountsReceivable\/View\.aspx$/i,
      name: 'web-invoice',
      handle: ({ res, query }) => {
        const invoice = invoiceOf(query.get('InvoiceID') ?? '');
        if (!invoice) throw new HttpError(404, 'No such invoice');
        const v = viewOf(invoice);
        webPage(res, `Invoice ${v.InvoiceNumber}`, [
          ['Contact', v.Contact.Name],
          ['Reference', v.Reference],
          ['Date', isoDay(invoice.dateMs)],
          ['Due', isoDay(invoice.dueDateMs)],
          ['Status', v.Status],
          ['Total', `$${v.Total.toFixed(2)}`],
          ['Amount due', `$${v.AmountDue.toFixed(2)}`],
        ]);
      },
    },
    {
      ...control,
      method: 'GET',
      path: /^\/RepeatTransactions\/Edit\.aspx$/i,
      name: 'web-repeating-invoice',
      handle: ({ res, query }) => {
        const r = repeating.get((query.get('invoiceID') ?? '').toLowerCase());
        if (!r) throw new HttpError(404, 'No such repeating invoice');
        const v = repeatingViewOf(r);
        webPage(res, `Repeating invoice ${v.Reference}`, [
          ['Contact', v.Contact.Name],
          ['Schedule', `every ${v.Schedule.Period} ${v.Schedule.Unit.toLowerCase()}`],
          [
            'Next',
            r.schedule.nextScheduledDateMs === null ? 'ended' : isoDay(r.schedule.nextScheduledDateMs),
          ],
          ['Status', v.Status],
          ['Total', `$${v.Total.toFixed(2)}`],
        ]);
      },
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/limits',
      name: 'limits',
      handle: ({ res }) => sendJson(res, 200, { limits: limits.limits, tenants: limits.usage() }),
    },
  ];

  const server = await startStandInServer({
    port: options.port,
    host: options.host,
    routes,
    errorBody,
    faults: options.faults,
    health: () => ({
      status: 'ok',
      today: isoDay(todayMs),
      contacts: contacts.size,
      invoices: invoices.size,
      repeatingInvoices: repeating.size,
    }),
    onClose: () => {
      closing = true;
      hold(false);
    },
  });

  return {
    url: server.url,
    port: server.port,
    apiUrl: `${server.url}${API_BASE}`,
    client: { ...client },
    today: () => isoDay(todayMs),
    now: () => new Date(now()),
    invoices: () => [...invoices.values()].map((i) => viewOf(i)),
    contacts: () => [...contacts.values()].map(contactView),
    repeatingInvoices: () => [...repeating.values()].map(repeatingViewOf),
    seedInvoices: (input) => seedInvoices(input),
    pay: (invoice, amountCents) =>
      pay(invoice, amountCents === undefined ? {} : { amount: amountCents / 100 }),
    runRepeatingInvoice,
    reset: (today) => void reset(today === undefined ? {} : { today }),
    advance: (ms) => {
      offsetMs += ms;
    },
    expireTokens,
    hold,
    openRequests: () => limits.usage().reduce((sum, t) => sum + t.open, 0),
    usage: () => limits.usage(),
    requests: (route) => server.requests(route),
    faults: server.faults,
    close: () => server.close(),
  };
}

export { DEMO_STOCK_REFERENCES, UNASSIGNED_REFERENCES, syntheticReference } from './demo-accounting';
export { XERO_LIMITS } from './rate-limits';
export type { ContactView, InvoiceView, RepeatingInvoiceView, RateLimits, TenantUsage };
