import { defineService, stockProjectionRole } from '@irp/platform';
import { AnnouncementEntity } from './announcements/announcement.entity';
import { AnnouncementProjectionBootstrap } from './announcements/announcement-projection.bootstrap';
import { AnnouncementProjectionRepository } from './announcements/announcement-projection.repository';
import { AnnouncementsHandlers } from './announcements/announcements.handlers';
import { refineReportsConfig, reportsConfigSchema } from './config';
import { CreateReports1795830322350 } from './database/migrations/1795830322350-CreateReports';
import { CreateMarketData1796400000000 } from './database/migrations/1796400000000-CreateMarketData';
import { CreateTradeRollups1796500000000 } from './database/migrations/1796500000000-CreateTradeRollups';
import { BoundPublicRegenerations1796600000000 } from './database/migrations/1796600000000-BoundPublicRegenerations';
import { ReportSearchOffByDefault1796700000000 } from './database/migrations/1796700000000-ReportSearchOffByDefault';
import { BrokerDayEntity } from './market/broker-day.entity';
import { BrokerEntity } from './market/broker.entity';
import { DailyPriceEntity } from './market/daily-price.entity';
import { DayStatsEntity } from './market/day-stats.entity';
import { MarketGapEntity } from './market/market-gap.entity';
import { QuoteEntity } from './market/quote.entity';
import { ReportMarketGaps } from './market/report-market-gaps';
import { SaveMarketData } from './market/save-market-data';
import { SyncWatchlistQuotes } from './market/sync-watchlist-quotes';
import { TradeDaysLoader } from './market/trade-days-loader';
import { UpdateChartData } from './market/update-chart-data';
import { TradeDayEntity } from './market/trade-day.entity';
import { TradeEntity } from './market/trade.entity';
import { MarketDataProvider } from './market/market-data.provider';
import { LoadMarketHistory } from './market/load-market-history';
import { LoadPriorDay } from './market/load-prior-day';
import { MarketDataReads } from './market/market-data-reads';
import { MarketJobs } from './market/market-jobs';
import { MarketRepository } from './market/market.repository';
import { ReportEntity } from './reports/report.entity';
import { GenerateReport } from './reports/generate-report';
import { GetReport } from './reports/get-report';
import { ListReports } from './reports/list-reports';
import { PruneRegenerations } from './reports/prune-regenerations';
import { RegenerateReport } from './reports/regenerate-report';
import { ReportsHandlers } from './reports/reports.handlers';
import { ReportsRepository } from './reports/reports.repository';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';

/** `stock.upserted` and the bootstrap / drift repair from `stocks.list`, in the api role. */
const stockProjection = stockProjectionRole(StockProjectionService);

/**
 * The reports service (DESIGN.md): market data (quotes, daily OHLCV) and trades with broker ids read from
 * the market-data provider by singleton jobs (watchlist quotes, prior day and history), the announcement
 * days of the announcements service's events (and its `announcements.headlines` for what came before), trading-activity reports computed in SQL over the trades,
 * stored reports and their public view. One role, `api`: the jobs are singleton jobs, so any number of
 * instances is fine.
 */
export const reportsService = defineService({
  name: 'reports',
  config: reportsConfigSchema,
  refineConfig: refineReportsConfig,
  database: {
    entities: [
      StockProjectionEntity,
      BrokerEntity,
      TradeEntity,
      TradeDayEntity,
      DayStatsEntity,
      BrokerDayEntity,
      MarketGapEntity,
      QuoteEntity,
      DailyPriceEntity,
      AnnouncementEntity,
      ReportEntity,
    ],
    migrations: [
      CreateReports1795830322350,
      CreateMarketData1796400000000,
      CreateTradeRollups1796500000000,
      BoundPublicRegenerations1796600000000,
      ReportSearchOffByDefault1796700000000,
    ],
  },
  providers: [
    StockProjectionService,
    MarketRepository,
    MarketDataProvider,
    ReportMarketGaps,
    SyncWatchlistQuotes,
    TradeDaysLoader,
    LoadPriorDay,
    LoadMarketHistory,
    UpdateChartData,
    SaveMarketData,
    MarketDataReads,
    MarketJobs,
    ReportsRepository,
    GenerateReport,
    ListReports,
    GetReport,
    RegenerateReport,
    PruneRegenerations,
    AnnouncementProjectionRepository,
  ],
  roles: {
    api: {
      handlers: [...stockProjection.handlers, ReportsHandlers, AnnouncementsHandlers],
      providers: [...stockProjection.providers, AnnouncementProjectionBootstrap],
    },
  },
});
