import { z } from 'zod';
import { SessionUserSchema, StockId } from './users';

/**
 * The stocks contract: the stock as services and the web app exchange it, the request/reply messages of
 * the stocks service, its events, and the pure rules both ends share (ticker validation, combinedTicker).
 * Field names are spec section 3's.
 */

// ---------------------------------------------------------------------------------------------------
// Exchanges and combinedTicker

export const Exchange = { ASX: 'ASX', LSE: 'LSE', FSE: 'FSE', OTC: 'OTC' } as const;
export type Exchange = (typeof Exchange)[keyof typeof Exchange];
export const EXCHANGES: readonly Exchange[] = Object.values(Exchange);
export const DEFAULT_EXCHANGE: Exchange = Exchange.ASX;
/** Exchanges whose stocks carry an ISIN on the Config tab. */
export const ISIN_EXCHANGES: readonly Exchange[] = [Exchange.LSE, Exchange.FSE];

export const ExchangeDtoSchema = z.object({
  code: z.nativeEnum(Exchange),
  name: z.string(),
  /** Where [View on Exchange] points, with `{ticker}` standing for the ticker. */
  viewUrlTemplate: z.string(),
});
export type ExchangeDto = z.infer<typeof ExchangeDtoSchema>;

export const EXCHANGE_DIRECTORY: readonly ExchangeDto[] = [
  {
    code: Exchange.ASX,
    name: 'Australian Securities Exchange',
    viewUrlTemplate: 'https://www.asx.com.au/markets/trade-our-cash-market/overview/equities/{ticker}',
  },
  {
    code: Exchange.LSE,
    name: 'London Stock Exchange',
    viewUrlTemplate: 'https://www.londonstockexchange.com/stock/{ticker}/company-page',
  },
  {
    code: Exchange.FSE,
    name: 'Frankfurt Stock Exchange',
    viewUrlTemplate: 'https://www.boerse-frankfurt.de/equity/{ticker}',
  },
  {
    code: Exchange.OTC,
    name: 'OTC Markets',
    viewUrlTemplate: 'https://www.otcmarkets.com/stock/{ticker}/overview',
  },
];

export const INVALID_TICKER_MESSAGE = 'Please define a valid ticker';
export const MIN_TICKER_LENGTH = 3;

/** Spec section 5: non-empty, at least 3 characters after trimming, letters and digits only. */
export function isValidTicker(ticker: string | null | undefined): boolean {
  const t = (ticker ?? '').trim();
  return t.length >= MIN_TICKER_LENGTH && /^[A-Za-z0-9]+$/.test(t);
}

/** Tickers are stored and shown upper-cased. */
export const normaliseTicker = (ticker: string): string => ticker.trim().toUpperCase();

/** `TICKER:EXCHANGE`, always with the exchange. */
export const combinedTickerOf = (ticker: string, exchange: string): string =>
  `${normaliseTicker(ticker)}:${exchange.trim().toUpperCase()}`;

/** How a ticker is shown in lists: ASX tickers bare, others with the exchange suffix (spec section 2). */
export const displayTicker = (ticker: string, exchange: string): string =>
  exchange === Exchange.ASX ? ticker : `${ticker}:${exchange}`;

/**
 * Parses `TICKER:EXCHANGE` (or a bare `TICKER`, which means ASX). Returns null when the text cannot name
 * a stock (empty parts, more than one colon).
 */
export function parseCombinedTicker(text: string): { ticker: string; exchange: string } | null {
  const parts = text.trim().split(':');
  if (parts.length > 2) return null;
  const ticker = normaliseTicker(parts[0] ?? '');
  const exchange = (parts[1] ?? DEFAULT_EXCHANGE).trim().toUpperCase();
  if (!ticker || !exchange) return null;
  return { ticker, exchange };
}

/** Longest API key; a key is letters, digits, `-` and `_` (the keys handed out are 32 hex digits). */
export const MAX_API_KEY_LENGTH = 100;
const API_KEY_FORM = /^[A-Za-z0-9_-]+$/;

/**
 * Whether text can be an API key at all. The widget API refuses anything else as an unknown key without
 * asking the stocks service; the stocks service refuses to save a key of another form.
 */
export const isWellFormedApiKey = (key: string): boolean =>
  key.length > 0 && key.length <= MAX_API_KEY_LENGTH && API_KEY_FORM.test(key);

/** A recorded referer is the page's origin and path (no query, fragment or credentials), cut to this. */
export const MAX_REFERER_URL_LENGTH = 200;
/**
 * A stock keeps at most this many referer pages. Once it has them, a hit from a page not yet recorded is
 * counted under the one OTHER_REFERERS row, so a flood of made-up Referer headers cannot grow the table.
 */
export const MAX_REFERERS_PER_STOCK = 200;
export const OTHER_REFERERS = '(other)';
/** The all-stocks referers report lists this many of each stock's most recently seen pages. */
export const MAX_REFERERS_PER_STOCK_IN_REPORT = 50;

/** Confirmation and notification email lists are split on commas or semicolons (spec section 9). */
export const splitEmailList = (value: string | null | undefined): string[] =>
  (value ?? '')
    .split(/[;,]/)
    .map((e) => e.trim())
    .filter(Boolean);

/** Spec section 9: the word appendix followed by 3b or 3y. Inserted by the Config tab's button. */
export const STANDARD_AUTO_SEND_FILTER = 'appendix\\s*3[by]';

// ---------------------------------------------------------------------------------------------------
// The stock

/** Every field the stocks service owns (spec section 3). Text fields are '' when unset. */
export const StockSchema = z.object({
  id: StockId,
  ticker: z.string(),
  exchange: z.string(),
  combinedTicker: z.string(),
  isin: z.string(),
  companyName: z.string(),
  created: z.string().datetime(),
  archived: z.boolean(),
  pollAsx: z.boolean(),
  /** False while the announcements service's initial poll runs; a stock with polling off counts as complete. */
  completedInitialPoll: z.boolean(),
  sendPriceSensitiveAnnouncements: z.boolean(),
  sendNonPriceSensitiveAnnouncements: z.boolean(),
  /** Email-marketing service, price-sensitive announcements. */
  autoSendAnnouncementEmail: z.boolean(),
  /** Email-marketing service, non-price-sensitive announcements. */
  autoSendNonPriceSensitiveAnnouncements: z.boolean(),
  autoSendFilter: z.string(),
  announcementStartYear: z.number().int(),
  confirmationEmail: z.string(),
  moderatorEmail: z.string(),
  contactEmail: z.string(),
  billingDate: z.string().datetime(),
  websiteUrl: z.string(),
  /** null when the stock has no API key yet. */
  apiKey: z.string().nullable(),
  announcementNotificationEmails: z.string(),
  accountingReference: z.string(),
  subscriptionExpired: z.boolean(),
  companyLogoUrl: z.string(),
  announcementCommentTemplate: z.string(),
  disableMarketData: z.boolean(),
  /**
   * The version history's versionId: increments with every recorded change (create, save, ticker change,
   * archive). Not an event sequence: `completedInitialPoll` changes come from the announcements service,
   * are not versioned, and publish `stock.upserted` with the version unchanged. Order events by `updatedAt`.
   */
  version: z.number().int(),
  /**
   * When the stock last changed, versioned or not. Strictly increases with every `stock.upserted` of a
   * stock (never repeats, never goes back, whatever the clocks), so consumers keep the event with the
   * latest `updatedAt` and ignore older ones.
   */
  updatedAt: z.string().datetime(),
});
export type Stock = z.infer<typeof StockSchema>;

/** Fields a save may set (everything but identity, derived and bookkeeping fields). */
export const EDITABLE_STOCK_FIELDS = [
  'ticker',
  'exchange',
  'isin',
  'companyName',
  'pollAsx',
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
  'autoSendFilter',
  'announcementStartYear',
  'confirmationEmail',
  'moderatorEmail',
  'contactEmail',
  'billingDate',
  'websiteUrl',
  'apiKey',
  'announcementNotificationEmails',
  'accountingReference',
  'subscriptionExpired',
  'companyLogoUrl',
  'announcementCommentTemplate',
  'disableMarketData',
] as const satisfies readonly (keyof Stock)[];
export type EditableStockField = (typeof EDITABLE_STOCK_FIELDS)[number];

/**
 * What a client user (not Admin) may change on the client Config tab (spec section 5: "Client (non-admin)
 * save sends only a subset of stock fields"), given ViewConfig on the stock.
 */
export const CLIENT_STOCK_FIELDS = [
  'companyName',
  'websiteUrl',
  'confirmationEmail',
  'contactEmail',
  'announcementNotificationEmails',
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
  'autoSendFilter',
] as const satisfies readonly EditableStockField[];

/** Spec section 6: ReplyToComment "may edit moderator emails, logo and comment template of the stock". */
export const REPLY_TO_COMMENT_FIELDS = [
  'moderatorEmail',
  'companyLogoUrl',
  'announcementCommentTemplate',
] as const satisfies readonly EditableStockField[];

const nullableText = z
  .string()
  .max(4000)
  .nullish()
  .transform((v) => v ?? '');

/**
 * Stock fields as a save sends them. Everything optional: a create fills the spec's defaults, an update
 * changes only what is sent. Shapes are checked here; the rules (ticker, ISIN, emails, years) in the
 * stocks service, so every caller gets the same messages.
 */
export const StockFieldsSchema = z
  .object({
    ticker: z.string().max(20),
    exchange: z.string().max(10),
    isin: nullableText,
    companyName: nullableText,
    pollAsx: z.boolean(),
    sendPriceSensitiveAnnouncements: z.boolean(),
    sendNonPriceSensitiveAnnouncements: z.boolean(),
    autoSendAnnouncementEmail: z.boolean(),
    autoSendNonPriceSensitiveAnnouncements: z.boolean(),
    autoSendFilter: nullableText,
    announcementStartYear: z.coerce.number().int(),
    confirmationEmail: nullableText,
    moderatorEmail: nullableText,
    contactEmail: nullableText,
    billingDate: z.string().max(40),
    websiteUrl: nullableText,
    apiKey: z.string().max(100).nullable(),
    announcementNotificationEmails: nullableText,
    accountingReference: nullableText,
    subscriptionExpired: z.boolean(),
    companyLogoUrl: nullableText,
    announcementCommentTemplate: z
      .string()
      .max(20000)
      .nullish()
      .transform((v) => v ?? ''),
    disableMarketData: z.boolean(),
  })
  .partial();
export type StockFields = z.input<typeof StockFieldsSchema>;

/** Who does a change: the signed-in user as the gateway knows them. */
export const ActorSchema = SessionUserSchema;
export type Actor = z.infer<typeof ActorSchema>;

// ---------------------------------------------------------------------------------------------------
// Notes, version history, referers

export const NoteSchema = z.object({
  id: z.string().uuid(),
  date: z.string().datetime(),
  user: z.string(),
  details: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

export const FieldChangeSchema = z.object({
  fieldName: z.string(),
  originalValue: z.string().nullable(),
  newValue: z.string().nullable(),
});
export const VersionHistorySchema = z.object({
  versionId: z.number().int(),
  changedOn: z.string().datetime(),
  changedBy: z.string(),
  changes: z.array(FieldChangeSchema),
});
export type VersionHistory = z.infer<typeof VersionHistorySchema>;

export const RefererSchema = z.object({
  url: z.string(),
  count: z.number().int(),
  first: z.string().datetime(),
  last: z.string().datetime(),
});
export type Referer = z.infer<typeof RefererSchema>;

export const StockReferersSchema = z.object({
  ticker: z.string(),
  exchange: z.string(),
  combinedTicker: z.string(),
  /** Widget API requests ever answered for the stock. */
  hits: z.number().int(),
  referers: z.array(RefererSchema),
});
export type StockReferers = z.infer<typeof StockReferersSchema>;

/** What the public widget API tells a client website about its stock. */
export const WidgetStockSchema = z.object({
  ticker: z.string(),
  exchange: z.string(),
  combinedTicker: z.string(),
  isin: z.string(),
  companyName: z.string(),
  websiteUrl: z.string(),
  companyLogoUrl: z.string(),
});
export type WidgetStock = z.infer<typeof WidgetStockSchema>;

// ---------------------------------------------------------------------------------------------------
// Request/reply messages of the stocks service

const CombinedTickerRequest = z.object({ combinedTicker: z.string().min(1).max(40) });

export const ListStocksRequestSchema = z.object({}).passthrough();
export const StockListReplySchema = z.object({ stocks: z.array(StockSchema) });

export const GetStockRequestSchema = CombinedTickerRequest;
export const StockReplySchema = z.object({ stock: StockSchema });

export const GetStocksByIdRequestSchema = z.object({ ids: z.array(StockId).max(10000) });

export const ResolveStockRequestSchema = CombinedTickerRequest;
export const ResolveStockReplySchema = z.object({ id: StockId.nullable() });

/**
 * Create (no `id`) or update. `mode: 'admin'` needs Admin; `mode: 'client'` saves only CLIENT_STOCK_FIELDS
 * (and REPLY_TO_COMMENT_FIELDS with that role on the stock) and needs ViewConfig on the stock.
 */
export const SaveStockRequestSchema = z.object({
  actor: ActorSchema,
  mode: z.enum(['admin', 'client']),
  id: StockId.optional(),
  /** Names the stock of a client save (clients never see ids). */
  combinedTicker: z.string().max(40).optional(),
  fields: StockFieldsSchema,
});

export const ChangeTickerRequestSchema = z.object({
  actor: ActorSchema,
  exchange: z.string().min(1).max(10),
  ticker: z.string().min(1).max(20),
  newTicker: z.string().max(20),
});

/** `archived` absent toggles (the spec's one Archive/Unarchive call). */
export const ArchiveStockRequestSchema = z.object({
  actor: ActorSchema,
  exchange: z.string().min(1).max(10),
  ticker: z.string().min(1).max(20),
  archived: z.boolean().optional(),
});

export const NewApiKeyRequestSchema = z.object({}).passthrough();
export const NewApiKeyReplySchema = z.object({ apiKey: z.string() });

export const ExchangesRequestSchema = z.object({}).passthrough();
export const ExchangesReplySchema = z.object({ exchanges: z.array(ExchangeDtoSchema) });

export const NotesRequestSchema = CombinedTickerRequest;
export const NotesReplySchema = z.object({ notes: z.array(NoteSchema) });
export const SaveNoteRequestSchema = z.object({
  actor: ActorSchema,
  combinedTicker: z.string().min(1).max(40),
  details: z.string().max(20000),
});
export const SaveNoteReplySchema = z.object({ note: NoteSchema });

export const VersionHistoryRequestSchema = CombinedTickerRequest;
export const VersionHistoryReplySchema = z.object({ versions: z.array(VersionHistorySchema) });

export const StockReferersRequestSchema = CombinedTickerRequest;
export const StockReferersReplySchema = StockReferersSchema;
export const AllReferersRequestSchema = z.object({}).passthrough();
export const AllReferersReplySchema = z.object({ stocks: z.array(StockReferersSchema) });

/**
 * One widget API request: finds the stock by API key and records the hit and its referer in the same
 * transaction. `referer` is the page's origin and path (the gateway strips query, fragment and
 * credentials); the service keeps at most MAX_REFERER_URL_LENGTH characters of it.
 */
export const WidgetLookupRequestSchema = z.object({
  apiKey: z.string().min(1).max(100),
  referer: z.string().max(500).optional(),
});
export const WidgetLookupReplySchema = z.object({
  stockId: StockId,
  archived: z.boolean(),
  stock: WidgetStockSchema,
});

// ---------------------------------------------------------------------------------------------------
// Events

/** Event-carried state: the whole stock, keyed by stock id. Other services keep their projection from it. */
export const StockUpsertedEventSchema = StockSchema;
export type StockUpsertedEvent = z.infer<typeof StockUpsertedEventSchema>;

export const StockTickerChangedEventSchema = z.object({
  id: StockId,
  exchange: z.string(),
  oldTicker: z.string(),
  newTicker: z.string(),
  oldCombinedTicker: z.string(),
  newCombinedTicker: z.string(),
  changedBy: z.string(),
  changedAt: z.string().datetime(),
});
export type StockTickerChangedEvent = z.infer<typeof StockTickerChangedEventSchema>;

export const StockArchivedEventSchema = z.object({
  id: StockId,
  combinedTicker: z.string(),
  archived: z.boolean(),
  changedBy: z.string(),
  changedAt: z.string().datetime(),
});
export type StockArchivedEvent = z.infer<typeof StockArchivedEventSchema>;

/**
 * Published by the announcements service: its initial poll of a stock started (on enabling polling or a
 * resync) or completed. The stocks service keeps `completedInitialPoll` from these.
 */
export const InitialPollEventSchema = z.object({ stockId: StockId, at: z.string().datetime() });
export type InitialPollEvent = z.infer<typeof InitialPollEventSchema>;
