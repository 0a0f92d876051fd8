import { defineServiceContract } from '../common/contract';
import { MarketDataFailedEventSchema } from './events';
import {
  ChartDataReplySchema,
  ChartDataRequestSchema,
  CurrentMarketDataReplySchema,
  CurrentMarketDataRequestSchema,
  GenerateReportRequestSchema,
  GetReportRequestSchema,
  ListReportsReplySchema,
  ListReportsRequestSchema,
  MarketDataReplySchema,
  RegenerateReportRequestSchema,
  ReportViewReplySchema,
  RunPriorDayReplySchema,
  RunPriorDayRequestSchema,
  SaveMarketDataRequestSchema,
  SyncWatchlistReplySchema,
  SyncWatchlistRequestSchema,
  UpdateChartDataReplySchema,
  UpdateChartDataRequestSchema,
} from './messages';
import { reportsRoutes } from './routes';

export * from './events';
export * from './messages';
export * from './records';
export * from './rest';
export * from './routes';
export * from './trading-days';

/**
 * The reports service: market data (quotes, daily OHLCV) and trades with broker ids read from the
 * market-data provider, the watchlist and prior-day jobs, trading-activity reports computed over the
 * trades, stored reports and the public report view. Consumes `stock.upserted` and
 * `announcement.detected` (its own projection of the announcement days); publishes `market-data.failed`.
 */
export const reportsContract = defineServiceContract({
  service: 'reports',
  routes: reportsRoutes,
  requests: {
    ReportsSaveMarketData: {
      topic: 'reports.save-market-data',
      request: SaveMarketDataRequestSchema,
      reply: MarketDataReplySchema,
      mutates: true,
    },
    ReportsCurrentMarketData: {
      topic: 'reports.current-market-data',
      request: CurrentMarketDataRequestSchema,
      reply: CurrentMarketDataReplySchema,
    },
    ReportsChartData: {
      topic: 'reports.chart-data',
      request: ChartDataRequestSchema,
      reply: ChartDataReplySchema,
    },
    ReportsUpdateChartData: {
      topic: 'reports.update-chart-data',
      request: UpdateChartDataRequestSchema,
      reply: UpdateChartDataReplySchema,
      mutates: true,
    },
    ReportsSyncWatchlist: {
      topic: 'reports.sync-watchlist',
      request: SyncWatchlistRequestSchema,
      reply: SyncWatchlistReplySchema,
      mutates: true,
    },
    ReportsRunPriorDay: {
      topic: 'reports.run-prior-day',
      request: RunPriorDayRequestSchema,
      reply: RunPriorDayReplySchema,
      mutates: true,
    },
    ReportsGenerate: {
      topic: 'reports.generate',
      request: GenerateReportRequestSchema,
      reply: ReportViewReplySchema,
      mutates: true,
    },
    ReportsList: { topic: 'reports.list', request: ListReportsRequestSchema, reply: ListReportsReplySchema },
    ReportsGet: { topic: 'reports.get', request: GetReportRequestSchema, reply: ReportViewReplySchema },
    ReportsRegenerate: {
      topic: 'reports.regenerate',
      request: RegenerateReportRequestSchema,
      reply: ReportViewReplySchema,
      mutates: true,
    },
  },
  events: {
    MarketDataFailed: { topic: 'market-data.failed', schema: MarketDataFailedEventSchema },
  },
});
