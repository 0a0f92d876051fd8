import { z } from 'zod';
import { StockId } from '../common/session';
import {
  ExchangeDtoSchema,
  NoteSchema,
  StockReferersSchema,
  VersionHistorySchema,
  WidgetStockSchema,
} from './records';
import { ActorSchema, StockFieldsSchema, StockSchema } from './stock';

/** Request/reply messages of the stocks service. */

const CombinedTickerRequest = z.object({ combinedTicker: z.string().min(1).max(40) });

/** Where a page of the stock list starts: after this stock (the last of the page before). */
export const StockListCursorSchema = z.object({ created: z.string().datetime(), id: StockId });
export type StockListCursor = z.infer<typeof StockListCursorSchema>;

/** The most stocks one page of `stocks.list` holds (a page of 1,000 is ~0.4 MB of JSON before gzip). */
export const STOCK_LIST_PAGE_MAX = 5000;

/**
 * One page of every stock, newest first (`created` descending, then `id`): the first page without `after`,
 * each next one after the last stock of the page before (keyset paging, so a page is never read twice or
 * skipped while stocks change; a stock created during the walk is in the next walk). No message carries the
 * whole list: at 20,000 stocks that was 8 MB of JSON in one reply. `readStockList` walks them.
 */
export const ListStocksRequestSchema = z.object({
  after: StockListCursorSchema.optional(),
  limit: z.number().int().min(1).max(STOCK_LIST_PAGE_MAX).default(1000),
});
export type ListStocksRequest = z.input<typeof ListStocksRequestSchema>;
export const StockListReplySchema = z.object({ stocks: z.array(StockSchema) });
/** A page, and where the next one starts (null after the last). */
export const StockListPageReplySchema = StockListReplySchema.extend({
  next: StockListCursorSchema.nullable(),
});
export type StockListPage = z.infer<typeof StockListPageReplySchema>;

export const GetStockRequestSchema = CombinedTickerRequest;
export const StockReplySchema = z.object({ stock: StockSchema });

export const GetStocksByIdRequestSchema = z.object({ ids: z.array(StockId).max(10000) });

/**
 * The id of the stock a combinedTicker names, or the stock whose product API key this is (a signed-in
 * route that names its stock by the key, e.g. spec section 7's test sends). Archived stocks too; null when
 * none. Unlike `stocks.widget-lookup`, it records no widget hit or referer.
 */
export const ResolveStockRequestSchema = z.union([
  CombinedTickerRequest,
  z.object({ apiKey: z.string().trim().min(1).max(100) }),
]);
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
  /** The stock's Subscription Expired switch: the gateway refuses its key as it does an archived stock's. */
  subscriptionExpired: z.boolean(),
  stock: WidgetStockSchema,
});
