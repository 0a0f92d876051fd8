import { z } from 'zod';
import { StockId } from '../common/session';
import { isTrueFlag } from '../common/rest';
import { MARKET_DATA_FIELDS, MarketDataField, marketDataValue, ReportViewSchema } from './records';

/**
 * REST shapes of the reports routes (docs/api/reports.md) that are not records. Shapes only; the rules and
 * their messages are the service's.
 */

const combinedTicker = z
  .string({ required_error: 'ticker is required', invalid_type_error: 'ticker must be text' })
  .trim()
  .min(1, 'ticker is required')
  .max(40, 'ticker must be at most 40 characters')
  .describe('ticker:exchange, e.g. BHP:ASX (a bare ticker means ASX)');

export const MarketTickerParamsSchema = z.object({ combinedTicker });

/**
 * A Market tab input: a number, or text the browser sends for one ('1,234.5'); '' or null clears it.
 * Anything else, or a number outside the field's limits (MARKET_DATA_LIMITS), is refused naming the field
 * (spec section 5: numeric inputs convert to numbers).
 */
const marketNumber = (name: MarketDataField) =>
  z.preprocess((v) => {
    if (v === null || v === undefined) return v;
    if (typeof v === 'string') {
      const text = v.replace(/[,\s$]/g, '');
      return text === '' ? null : Number(text);
    }
    return v;
  }, marketDataValue(name).optional());

/**
 * POST /api/admin/saveMarketData/{combinedTicker}: the Market tab's fields. A field left out stays as it
 * is; `updated` (and anything else) is ignored: the server sets it.
 */
export const SaveMarketDataBodySchema = z.object(
  Object.fromEntries(MARKET_DATA_FIELDS.map((f) => [f, marketNumber(f)])) as {
    [K in MarketDataField]: ReturnType<typeof marketNumber>;
  },
);

/** GET /api/admin/getChartData/?id: the stock id. */
export const StockIdQuerySchema = z.object({ id: StockId.describe('the stock id') });

/** POST /api/admin/updateChartData/: the stock id. */
export const UpdateChartDataBodySchema = z.object({ id: StockId.describe('the stock id') }).strict();
export const UpdateChartDataResponseSchema = z.object({
  success: z.boolean(),
  /** Days of daily OHLCV the stock has after the update. */
  rowCount: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
});

const JobFailureSchema = z.object({ ticker: z.string(), errorMessage: z.string() });

/** POST /api/admin/syncWatchlist: quotes of every stock without disableMarketData. */
export const SyncWatchlistResponseSchema = z.object({
  success: z.boolean(),
  /** Stocks asked for (not archived, market data not disabled). */
  stocks: z.number().int(),
  updated: z.number().int(),
  failed: z.array(JobFailureSchema),
  errorMessage: z.string().nullable(),
  /**
   * Stocks (combinedTicker) whose manual quote, a staff user's edit on the Market tab, this sync replaced
   * with the provider's: the staff tool's sync takes the provider's quote of every stock; the automatic
   * syncs never replace a manual quote of the current trading day.
   */
  manualReplaced: z.array(z.string()),
});

/** POST /api/admin/runPriorDay: the previous trading day's trades of every such stock. */
export const RunPriorDayResponseSchema = z.object({
  success: z.boolean(),
  day: z.string(),
  stocks: z.number().int(),
  /** Stock-days loaded now; those already loaded are skipped. */
  loaded: z.number().int(),
  skipped: z.number().int(),
  /**
   * Stock-days the provider has not published yet (inside its publication lag and grace): not loaded, not
   * a failure, asked again at the next run.
   */
  unpublished: z.number().int(),
  trades: z.number().int(),
  failed: z.array(JobFailureSchema),
  errorMessage: z.string().nullable(),
});

/** A form flag as the browser sends it: 'true', 'on', '1' are true; absent, '', 'false', 'off', '0' false. */
const formFlag = (fallback: boolean) =>
  z
    .union([z.string(), z.boolean()])
    .optional()
    .transform((v) => {
      if (typeof v === 'boolean') return v;
      if (v === undefined || v.trim() === '') return fallback;
      return isTrueFlag(v);
    });

/** A date as a form sends it: 'YYYY-MM-DD' or an ISO date-time (its date is used); '' means the default. */
const formDate = (name: string) =>
  z
    .string({ invalid_type_error: `${name} must be a date` })
    .trim()
    .max(40, `${name} must be a date`)
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^\d{4}-\d{2}-\d{2}/.test(v), `${name} must be a date (YYYY-MM-DD)`)
    .transform((v) => v?.slice(0, 10));

/**
 * POST /api/admin/generateReport: the Reports tab's form (multipart text fields). Peers: tickers separated
 * by commas, semicolons or spaces. StartDate and EndDate default to the previous calendar month.
 */
export const GenerateReportFormSchema = z.object({
  Ticker: combinedTicker,
  StartDate: formDate('StartDate'),
  EndDate: formDate('EndDate'),
  Peers: z
    .string()
    .max(2000, 'Peers must be at most 2,000 characters')
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(/[,;\s]+/)
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .refine((p) => p.length <= 20, 'at most 20 peers'),
  ComparativeTradingActivity: formFlag(false),
  PriceOverlay: formFlag(false),
  /**
   * Whether the public report page offers its date-range form: only when the staff member ticks 'Allow
   * search' (default off, issue 34: anyone with the link may search other dates).
   */
  AllowSearch: formFlag(false),
});

export const GenerateReportResponseSchema = z.object({
  report: ReportViewSchema.nullable(),
  errorMessage: z.string().nullable(),
});

/** GET /api/admin/reports?ticker */
export const ReportsQuerySchema = z.object({ ticker: combinedTicker });

/** GET /api/report/{guid} */
export const ReportGuidParamsSchema = z.object({
  guid: z.string().trim().min(1, 'guid is required').max(64, 'guid must be at most 64 characters'),
});

/** POST /api/report/generateReport: a new date range of a report that allows search. */
export const PublicGenerateReportBodySchema = z.object({
  Guid: z
    .string({ required_error: 'Guid is required' })
    .trim()
    .min(1, 'Guid is required')
    .max(64, 'Guid must be at most 64 characters'),
  StartDate: formDate('StartDate'),
  EndDate: formDate('EndDate'),
});
