import { z } from 'zod';
import { StockId } from '../common/session';
import { ActorSchema } from '../stocks/stock';
import {
  ChartDataRowSchema,
  MARKET_DATA_FIELDS,
  MarketDataField,
  MarketDataSchema,
  marketDataValue,
  ReportSummarySchema,
  ReportViewSchema,
} from './records';
import { RunPriorDayResponseSchema, SyncWatchlistResponseSchema } from './rest';

/**
 * Request/reply messages of the reports service. The gateway has checked roles; stocks are named by
 * combinedTicker or id (the service keeps its own projection of the stocks from `stock.upserted`). A
 * provider problem comes back as SERVICE_UNAVAILABLE with its message, bad input as BAD_REQUEST or
 * NOT_FOUND, never as INTERNAL.
 */

const ticker = z.string().min(1).max(40);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Each field within its limits here too: anything on the broker is held to what the Market tab may save. */
export const SaveMarketDataRequestSchema = z.object({
  actor: ActorSchema,
  combinedTicker: ticker,
  fields: z
    .object(
      Object.fromEntries(MARKET_DATA_FIELDS.map((f) => [f, marketDataValue(f)])) as {
        [K in MarketDataField]: ReturnType<typeof marketDataValue>;
      },
    )
    .partial(),
});
export const MarketDataReplySchema = MarketDataSchema;

/** The stock page's part: the quote of the stock named (null when there is none or the name is unknown). */
export const CurrentMarketDataRequestSchema = z.object({ combinedTicker: ticker });
export const CurrentMarketDataReplySchema = z.object({ marketData: MarketDataSchema.nullable() });

export const ChartDataRequestSchema = z.object({ stockId: StockId });
export const ChartDataReplySchema = z.object({ rows: z.array(ChartDataRowSchema) });

export const UpdateChartDataRequestSchema = z.object({ actor: ActorSchema, stockId: StockId });
export const UpdateChartDataReplySchema = z.object({ rowCount: z.number().int() });

export const SyncWatchlistRequestSchema = z.object({ actor: ActorSchema });
export const SyncWatchlistReplySchema = SyncWatchlistResponseSchema;

export const RunPriorDayRequestSchema = z.object({ actor: ActorSchema, day: day.optional() });
export const RunPriorDayReplySchema = RunPriorDayResponseSchema;

export const GenerateReportRequestSchema = z.object({
  actor: ActorSchema,
  combinedTicker: ticker,
  startDate: day.optional(),
  endDate: day.optional(),
  peers: z.array(ticker).max(20),
  comparativeTradingActivity: z.boolean(),
  priceOverlay: z.boolean(),
  /** The public page's date-range search; off unless asked for (the Reports tab's 'Allow search'). */
  allowSearch: z.boolean().default(false),
});
export const ReportViewReplySchema = ReportViewSchema;

export const ListReportsRequestSchema = z.object({ combinedTicker: ticker });
export const ListReportsReplySchema = z.object({ reports: z.array(ReportSummarySchema) });

export const GetReportRequestSchema = z.object({ guid: z.string().min(1).max(64) });

/** The public page's date-range form: a new report like the one named, over other dates. */
export const RegenerateReportRequestSchema = z.object({
  guid: z.string().min(1).max(64),
  startDate: day.optional(),
  endDate: day.optional(),
});
