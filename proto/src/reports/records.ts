import { z } from 'zod';
import { StockId } from '../common/session';

/**
 * The records of the reports service (spec section 3: market data, chart data rows, reports and the report
 * view), as services, the gateway and the web app exchange them. Prices and values are dollars (numbers);
 * the service stores trade prices as integer hundredths of a cent (docs/api/reports.md).
 */

const num = z.number().finite();

/** A stock's current quote (spec section 3, Market data). `updated` is set by the server. */
export const MarketDataSchema = z.object({
  ask: num.nullable(),
  bid: num.nullable(),
  last: num.nullable(),
  movement: num.nullable(),
  movementPercent: num.nullable(),
  open: num.nullable(),
  high: num.nullable(),
  low: num.nullable(),
  volume: num.nullable(),
  sharesOnIssue: num.nullable(),
  marketCap: num.nullable(),
  /** When the quote was last written (provider sync or a staff save); null when there is none. */
  updated: z.string().datetime().nullable(),
});
export type MarketData = z.infer<typeof MarketDataSchema>;

/** The editable fields of the Market tab. */
export const MARKET_DATA_FIELDS = [
  'ask',
  'bid',
  'last',
  'movement',
  'movementPercent',
  'open',
  'high',
  'low',
  'volume',
  'sharesOnIssue',
  'marketCap',
] as const;
export type MarketDataField = (typeof MARKET_DATA_FIELDS)[number];

const PRICE = { min: 0, max: 1_000_000_000 };
const COUNT = { min: 0, max: 1e15, whole: true };
/**
 * What a Market tab field may hold: a price or a value is never negative and a fall never more than 100%;
 * a volume or a share count is whole; each at most what the reports service keeps exactly. The fuzz suite's
 * domain values found negative prices and volumes stored, fractions of a share rounded, and larger numbers
 * overflowing the columns as 500s (issue 34).
 */
export const MARKET_DATA_LIMITS: Readonly<
  Record<MarketDataField, { min: number; max: number; whole?: boolean }>
> = {
  ask: PRICE,
  bid: PRICE,
  last: PRICE,
  movement: { min: -PRICE.max, max: PRICE.max },
  movementPercent: { min: -100, max: 10_000_000 },
  open: PRICE,
  high: PRICE,
  low: PRICE,
  volume: COUNT,
  sharesOnIssue: COUNT,
  marketCap: { min: 0, max: 10_000_000_000_000 },
};

/** Why a number cannot be a Market tab field's value (MARKET_DATA_LIMITS); undefined when it can. */
export function marketDataProblem(field: MarketDataField, value: number): string | undefined {
  const { min, max, whole } = MARKET_DATA_LIMITS[field];
  const shown = (n: number) => n.toLocaleString('en-AU');
  if (value < min) return `${field} must be ${min === 0 ? '0 or more' : `at least ${shown(min)}`}`;
  if (value > max) return `${field} must be at most ${shown(max)}`;
  if (whole && !Number.isInteger(value)) return `${field} must be a whole number`;
  return undefined;
}

/** A Market tab field's number as a save carries it: finite, within its limits; null clears it. */
export const marketDataValue = (field: MarketDataField) =>
  z
    .number({ invalid_type_error: `${field} must be a number` })
    .finite(`${field} must be a number`)
    .superRefine((value, ctx) => {
      const problem = marketDataProblem(field, value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .nullable();

/** One day of a stock's daily OHLCV (Stock Data table). */
export const ChartDataRowSchema = z.object({
  date: z.string(),
  open: num,
  high: num,
  low: num,
  close: num,
  volume: num,
});
export type ChartDataRow = z.infer<typeof ChartDataRowSchema>;

/** A stored report as the Reports tab lists it. */
export const ReportSummarySchema = z.object({
  guid: z.string(),
  created: z.string().datetime(),
  ticker: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  peers: z.array(z.string()),
  comparativeTradingActivity: z.boolean(),
  priceOverlay: z.boolean(),
  allowSearch: z.boolean(),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;

/** One broker's trading in one stock over the report period (spec section 3, Broker share analysis). */
export const BrokerShareSchema = z.object({
  name: z.string(),
  /** buyValue + sellValue. */
  totVal: num,
  /** buyValue - sellValue. */
  netVal: num,
  /** buyVol - sellVol. */
  netVol: num,
  sells: z.number().int(),
  sellVol: num,
  /** Average sell price (sellValue / sellVol); 0 without sells. */
  sellPrice: num,
  sellValue: num,
  buys: z.number().int(),
  buyVol: num,
  buyPrice: num,
  buyValue: num,
  /** buys + sells. */
  trades: z.number().int(),
  /** Share of the stock's traded volume: (buyVol + sellVol) / (2 x total volume) x 100. */
  tradedPercent: num,
});
export type BrokerShare = z.infer<typeof BrokerShareSchema>;

export const BrokerActivitySchema = z.object({
  brokerShareAnalysis: z.object({
    ticker: z.string(),
    totalValue: num,
    totalVolume: num,
    numTrades: z.number().int(),
    /** How many brokers traded it in the period (the list holds the top 20 by totVal). */
    brokerCount: z.number().int(),
    brokers: z.array(BrokerShareSchema),
  }),
});

export const ComparativeTradingActivitySchema = z.object({
  items: z.array(
    z.object({
      name: z.string(),
      /** The stock's share of the value traded by the target and its peers together. */
      percent: num,
      meta: z.object({ ticker: z.string(), value: num }),
    }),
  ),
  targetValue: num,
  totalPeerValue: num,
});

export const AnnouncementOfDaySchema = z.object({
  date: z.string().datetime(),
  headline: z.string(),
  priceSensitive: z.boolean(),
});

/** One trading day of the target (spec section 3, Trade analysis). Null figures: the day's data is missing. */
export const TradeAnalysisDaySchema = z.object({
  day: z.string(),
  numTrades: z.number().int().nullable(),
  trVal: num.nullable(),
  avgSize: num.nullable(),
  high: num.nullable(),
  low: num.nullable(),
  close: num.nullable(),
  announcements: z.array(AnnouncementOfDaySchema),
  /** True when the provider's trades of that day could not be loaded: the figures are not zeros. */
  missingData: z.boolean(),
});

export const PriceComparisonSchema = z.object({
  series: z.array(
    z.object({
      ticker: z.string(),
      /** Close of each day with trades, and its change in percent from the first close of the period. */
      points: z.array(z.object({ day: z.string(), close: num, changePercent: num })),
    }),
  ),
});

export const PreReleaseFlagSchema = z.object({
  announcementDate: z.string().datetime(),
  headline: z.string(),
  broker: z.string(),
  /** The sessions before the announcement that were looked at. */
  sessions: z.array(z.string()),
  netVol: num,
  netVal: num,
  /** The broker's usual net volume over as many sessions (mean of its baseline windows) and its spread. */
  baselineNetVol: num,
  baselineSpread: num,
  /** How many spreads the pre-release net volume is from the baseline. */
  score: num,
});
export type PreReleaseFlag = z.infer<typeof PreReleaseFlagSchema>;

/** The report view (spec section 3), stored with the report when it was generated. */
export const ReportViewSchema = z.object({
  guid: z.string(),
  created: z.string().datetime(),
  stockId: StockId,
  ticker: z.string(),
  companyName: z.string(),
  peers: z.array(z.string()),
  startDate: z.string(),
  endDate: z.string(),
  allowSearch: z.boolean(),
  priceOverlay: z.boolean(),
  activitySummary: z.object({
    numTrades: z.number().int(),
    totalVolume: num,
    totalValue: num,
    averageDailyValue: num,
    vwap: num,
    open: num.nullable(),
    close: num.nullable(),
    high: num.nullable(),
    low: num.nullable(),
    changePercent: num.nullable(),
    brokerCount: z.number().int(),
    text: z.string(),
  }),
  reportPeriod: z.object({
    startDate: z.string(),
    endDate: z.string(),
    tradingDays: z.number().int(),
    daysWithData: z.number().int(),
    /** Trading days whose trades are missing (provider outage or not loaded yet), per ticker. */
    missingDays: z.array(z.object({ ticker: z.string(), day: z.string(), reason: z.string() })),
    /**
     * Tickers whose market data is disabled (disableMarketData): never loaded, so said once here rather
     * than a missing day each. Reports stored before it have none.
     */
    marketDataDisabled: z.array(z.string()).default([]),
    text: z.string(),
  }),
  brokerActivityViewModels: z.array(BrokerActivitySchema),
  comparativeTradingActivity: ComparativeTradingActivitySchema.nullable(),
  priceComparison: PriceComparisonSchema,
  tradeAnalysis: z.array(TradeAnalysisDaySchema),
  peerPerformance: z.array(z.object({ name: z.string(), percentage: num.nullable() })),
  preRelease: z.object({
    sessionsBefore: z.number().int(),
    baselineSessions: z.number().int(),
    threshold: num,
    flags: z.array(PreReleaseFlagSchema),
  }),
});
export type ReportView = z.infer<typeof ReportViewSchema>;
