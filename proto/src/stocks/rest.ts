import { z } from 'zod';
import { PageCursorSchema } from '../common/paging';
import { AnnouncementSchema, InitialPollProgressSchema } from '../announcements/records';
import { MarketDataSchema } from '../reports/records';
import { DashboardInvoiceSchema, DashboardRepeatingInvoiceSchema } from '../common/dashboard';
import { savedResponse } from '../common/rest';
import { StockId } from '../common/session';
import { NewApiKeyReplySchema } from './messages';
import {
  ExchangeDtoSchema,
  NoteSchema,
  RefererSchema,
  StockReferersSchema,
  VersionHistorySchema,
} from './records';
import {
  CLIENT_SAVE_FIELDS,
  ClientSaveField,
  ROLE_RESTRICTED_CLIENT_FIELDS,
  STOCK_SUMMARY_FIELDS,
} from './fields';
import { StockFieldsSchema, StockSchema } from './stock';

/**
 * REST shapes of the stock routes (docs/api/stocks.md): what the gateway validates requests with, what it
 * answers, what its OpenAPI document shows and what the web app's endpoints are typed with. Request
 * schemas check shapes only; the rules (ticker, ISIN, emails...) live in the stocks service, so every
 * caller gets the same messages.
 */

// ---------------------------------------------------------------------------------------------------
// Requests

/** Messages leave out the field's name: the validation pipe puts it in front ("ticker: Required"). */
const requiredText = (max: number) =>
  z
    .string({ required_error: 'Required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'Required')
    .max(max, `must be at most ${max} characters`);

/** `TICKER:EXCHANGE` (or a bare ASX ticker). */
const combinedTickerText = requiredText(40).describe('combinedTicker, e.g. BHP:ASX');

/**
 * The `{combinedTicker}` path segment. A path parameter is checked on its own, with no field path for the
 * pipe to name, so the messages do.
 */
export const CombinedTickerParamsSchema = z.object({
  combinedTicker: z
    .string()
    .trim()
    .min(1, 'combinedTicker is required')
    .max(40, 'combinedTicker must be at most 40 characters')
    .describe('combinedTicker, e.g. BHP:ASX'),
});

/** `?ticker=` of the notes, history and referers routes: a combinedTicker (spec: ticker = combinedTicker). */
export const TickerQuerySchema = z.object({ ticker: combinedTickerText });
export type TickerQuery = z.infer<typeof TickerQuerySchema>;

export const CombinedTickerQuerySchema = z.object({ combinedTicker: combinedTickerText });
export type CombinedTickerQuery = z.infer<typeof CombinedTickerQuerySchema>;

/**
 * POST /api/admin/stocks: stock fields plus an optional id (absent or null = create). Fields the web app
 * sends back from a loaded stock but cannot set (created, version...) are dropped, not refused.
 */
export const AdminSaveStockSchema = StockFieldsSchema.extend({
  id: StockId.nullish().transform((v) => v ?? undefined),
});
/** What the web app sends; the gateway reads the parsed form. */
export type AdminSaveStockBody = z.input<typeof AdminSaveStockSchema>;

/** POST /api/admin/changeTicker. */
export const ChangeTickerSchema = z
  .object({
    exchange: requiredText(10),
    ticker: requiredText(20),
    newTicker: z.string({ required_error: 'Required', invalid_type_error: 'must be text' }).max(20),
  })
  .strict();
export type ChangeTickerBody = z.input<typeof ChangeTickerSchema>;

/** POST /api/admin/archiveStock: `archived` absent toggles; the web app always sends it (no double toggle). */
export const ArchiveStockSchema = z
  .object({
    exchange: requiredText(10),
    ticker: requiredText(20),
    archived: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
  })
  .strict();
export type ArchiveStockBody = z.input<typeof ArchiveStockSchema>;

/** POST /api/admin/saveNote: `ticker` is the combinedTicker. */
export const SaveNoteSchema = z
  .object({
    ticker: combinedTickerText,
    details: z
      .string({ required_error: 'Required', invalid_type_error: 'must be text' })
      .max(20000, 'must be at most 20000 characters'),
  })
  .strict();
export type SaveNoteBody = z.input<typeof SaveNoteSchema>;

const clientMask = Object.fromEntries(CLIENT_SAVE_FIELDS.map((k) => [k, true])) as {
  [K in ClientSaveField]: true;
};
const allowedClientKeys = new Set<string>(['combinedTicker', ...CLIENT_SAVE_FIELDS]);
const ClientSaveFieldsSchema = StockFieldsSchema.pick(clientMask)
  .extend({ combinedTicker: combinedTickerText })
  .strip();

/**
 * The client form's fields no client save sets (ClientStockSchema's besides combinedTicker and the client save
 * fields: id, ticker, created, apiKey, the composed invoice and email-marketing columns, ...). Read when a save
 * is parsed, after the module has defined ClientStockSchema below.
 */
export const clientReadOnlyKeys = (): string[] =>
  Object.keys(ClientStockSchema.shape).filter((k) => !allowedClientKeys.has(k));

/**
 * POST /api/ClientStock. The client form may be posted back as it was read (spec section 3's client-facing
 * form): its read-only fields come out under `asRead`, which the gateway compares with the stock as the
 * caller reads it and refuses when one was changed, so a client can never think it changed a field only staff
 * may change. Any field outside the client form is a 400 naming it.
 */
export const ClientSaveStockSchema = z
  .object({})
  .passthrough()
  .superRefine((body, ctx) => {
    const readOnly = new Set(clientReadOnlyKeys());
    const extra = Object.keys(body).filter((k) => !allowedClientKeys.has(k) && !readOnly.has(k));
    if (extra.length) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `Not allowed in a client save: ${extra.join(', ')}`,
      });
    }
  })
  .transform((body: Record<string, unknown>) => {
    const readOnly = new Set(clientReadOnlyKeys());
    const asRead = Object.fromEntries(Object.entries(body).filter(([k]) => readOnly.has(k)));
    const fields = Object.fromEntries(Object.entries(body).filter(([k]) => !readOnly.has(k)));
    return { ...fields, asRead };
  })
  .pipe(ClientSaveFieldsSchema.extend({ asRead: z.record(z.string(), z.unknown()) }));
/** What the web app sends: the combinedTicker and only the fields this user may change. */
export type ClientSaveStockBody = z.input<typeof ClientSaveFieldsSchema>;

// ---------------------------------------------------------------------------------------------------
// Responses

/** What report-runners see of a stock (STOCK_SUMMARY_FIELDS). */
type SummaryField = (typeof STOCK_SUMMARY_FIELDS)[number];
const summaryMask = Object.fromEntries(STOCK_SUMMARY_FIELDS.map((k) => [k, true])) as {
  [K in SummaryField]: true;
};

export const StockSummarySchema = StockSchema.pick(summaryMask);
export type StockSummary = z.infer<typeof StockSummarySchema>;

/**
 * The Stock's `completedInitialPoll` (spec section 3), composed by the gateway in the responses that carry
 * it: the stocks service's `pollAsx` with the announcements service's latest initial poll, which that
 * service alone keeps (`completedInitialPollOf`, proto/src/announcements/initial-poll.ts).
 */
const ComposedInitialPoll = { completedInitialPoll: z.boolean() };

/** GET /api/stock/{combinedTicker} for a report-runner: the summary plus whether the stock page may save. */
export const ReportRunnerStockSchema = StockSummarySchema.extend(ComposedInitialPoll);
export type ReportRunnerStock = z.infer<typeof ReportRunnerStockSchema>;

/**
 * GET /api/stock/{combinedTicker} for an admin: the whole stock with its `announcements` (newest first) and
 * the latest initial poll, composed by the gateway from the announcements service (ADR 0004), and the
 * parts of the stock page's contributors (the reports service's `currentMarketData`): null, and the
 * service named in `unavailable`, when it did not answer.
 */
export const AdminStockPageSchema = StockSchema.extend({
  ...ComposedInitialPoll,
  /** The newest ANNOUNCEMENT_PAGE_SIZE; the older ones page by page from GET /api/Announcement/list. */
  announcements: z.array(AnnouncementSchema).nullable(),
  /** Where the older announcements continue (that list's `after`), or null when these are all. */
  announcementsNext: PageCursorSchema.nullable().optional(),
  initialPoll: InitialPollProgressSchema.nullable(),
  /** The Market tab's current quote (reports service); null when there is none or it did not answer. */
  currentMarketData: MarketDataSchema.nullable().optional(),
  unavailable: z.array(z.string()),
});
export type AdminStockPage = z.infer<typeof AdminStockPageSchema>;

/** GET /api/stock/{combinedTicker}: the composed stock page for an admin, the report-runner form otherwise. */
export const StockPageSchema = z.union([AdminStockPageSchema, ReportRunnerStockSchema]);

/** POST /api/admin/stocks, changeTicker, archiveStock: the stock as saved (errors: SaveErrorSchema). */
export const StockChangeResponseSchema = savedResponse(StockSchema);
export type StockChangeResponse = z.infer<typeof StockChangeResponseSchema>;

/**
 * One row of GET /api/admin/stocks (the staff dashboard). The stock's own fields come from the stocks
 * service; `emailMarketing`, `invoice` and `repeatingInvoice` are composed in by the gateway from the
 * services that own them (null until such a service contributes, or when it did not answer).
 * Report-runners get only the summary fields (Ticker, Created, Website).
 */
export const StockRowSchema = StockSummarySchema.extend({
  apiKey: z.string().nullable().optional(),
  pollAsx: z.boolean().optional(),
  subscriptionExpired: z.boolean().optional(),
  emailMarketing: z.boolean().nullable().optional(),
  invoice: DashboardInvoiceSchema.nullable().optional(),
  repeatingInvoice: DashboardRepeatingInvoiceSchema.nullable().optional(),
});
export type StockRowDto = z.infer<typeof StockRowSchema>;

/**
 * GET /api/admin/stocks: the rows themselves, a JSON array (spec section 7: "(list)"). Which composing
 * services did not answer (their columns are null) rides in the STOCK_LIST_UNAVAILABLE_HEADER response
 * header, so the body stays the list a client written from the spec reads.
 */
export const StockListSchema = z.array(StockRowSchema);
export type StockListDto = z.infer<typeof StockListSchema>;

const restrictedClientMask = Object.fromEntries(ROLE_RESTRICTED_CLIENT_FIELDS.map((k) => [k, true])) as {
  [K in (typeof ROLE_RESTRICTED_CLIENT_FIELDS)[number]]: true;
};

/**
 * The client-facing form of a stock (spec section 3: "Client-facing form adds combinedTicker,
 * email-marketing flag, invoiceId, invoiceTotal, invoiceStatus, invoiceDate, invoiceNumber"): GET
 * /api/ClientStock/?combinedTicker and each row of GET /api/clientDashboard/. The gateway leaves out the
 * fields the caller's roles on the stock do not allow (least privilege: the configuration needs ViewConfig,
 * the moderator emails, logo and comment template ReplyToComment, the invoice Invoicing), so those are
 * optional: absent means not allowed.
 */
export const ClientStockSchema = StockSchema.pick({
  id: true,
  combinedTicker: true,
  ticker: true,
  exchange: true,
  companyName: true,
  created: true,
  apiKey: true,
  websiteUrl: true,
  confirmationEmail: true,
  contactEmail: true,
  announcementNotificationEmails: true,
  sendPriceSensitiveAnnouncements: true,
  sendNonPriceSensitiveAnnouncements: true,
  autoSendAnnouncementEmail: true,
  autoSendNonPriceSensitiveAnnouncements: true,
  autoSendFilter: true,
  moderatorEmail: true,
  companyLogoUrl: true,
  announcementCommentTemplate: true,
})
  .extend({
    ...ComposedInitialPoll,
    /** The roles the signed-in user holds on this stock (all of them for an admin). */
    roles: z.array(z.string()),
    emailMarketing: z.boolean().nullable(),
    invoiceId: z.string().nullable(),
    /** Dollars. */
    invoiceTotal: z.number().nullable(),
    /** PAID or the accounting system's other status. */
    invoiceStatus: z.string().nullable(),
    invoiceDate: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
  })
  .partial(restrictedClientMask);
export type ClientStockDto = z.infer<typeof ClientStockSchema>;

/** POST /api/ClientStock: the client form of the stock as saved (errors: SaveErrorSchema). */
export const ClientStockChangeResponseSchema = savedResponse(ClientStockSchema);
export type ClientStockChangeResponse = z.infer<typeof ClientStockChangeResponseSchema>;

/** GET /api/clientDashboard/ (spec: "returns stocks"). */
export const ClientDashboardSchema = z.object({ stocks: z.array(ClientStockSchema) });
export type ClientDashboardDto = z.infer<typeof ClientDashboardSchema>;

/** GET /api/admin/apiKey: a new unused key (the stocks service's reply as it is). */
export type NewApiKeyDto = z.infer<typeof NewApiKeyReplySchema>;

/** GET /api/admin/exchanges. */
export const ExchangeListSchema = z.array(ExchangeDtoSchema);

/** GET /api/admin/getNotes: newest first. */
export const NoteListSchema = z.array(NoteSchema);

/** POST /api/admin/saveNote. */
export const SaveNoteResponseSchema = z.object({ success: z.literal(true), note: NoteSchema });
export type SaveNoteResponse = z.infer<typeof SaveNoteResponseSchema>;

/** GET /api/admin/getStockVersionHistory: newest first. */
export const VersionHistoryListSchema = z.array(VersionHistorySchema);

/** GET /api/admin/stockReferers: the pages of one stock, most recent first. */
export const RefererListSchema = z.array(RefererSchema);

/** GET /api/admin/referers: every stock's hits and pages. */
export const AllReferersSchema = z.array(StockReferersSchema);
