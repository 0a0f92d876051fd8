import { defineService, stockProjectionRole } from '@irp/platform';
import { AnnouncementProjectionBootstrap } from './announcements/announcement-projection.bootstrap';
import { AnnouncementProjectionRepository } from './announcements/announcement-projection.repository';
import { AnnouncementsHandlers } from './announcements/announcements.handlers';
import { reportsConfigSchema } from './config';
import { CreateReports1795830322350 } from './database/migrations/1795830322350-CreateReports';
import { CreateMarketData1796400000000 } from './database/migrations/1796400000000-CreateMarketData';
import { CreateTradeRollups1796500000000 } from './database/migrations/1796500000000-CreateTradeRollups';
import { MarketDataProvider } from './market/market-data.provider';
import { MarketDataService } from './market/market-data.service';
import { MarketJobs } from './market/market-jobs';
import { MarketRepository } from './market/market.repository';
import { ReportsHandlers } from './reports/reports.handlers';
import { ReportsRepository } from './reports/reports.repository';
import { ReportsService } from './reports/reports.service';
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
  database: {
    entities: [StockProjectionEntity],
    migrations: [CreateReports1795830322350, CreateMarketData1796400000000, CreateTradeRollups1796500000000],
  },
  providers: [
    StockProjectionService,
    MarketRepository,
    MarketDataProvider,
    MarketJobs,
    MarketDataService,
    ReportsRepository,
    ReportsService,
    AnnouncementProjectionRepository,
  ],
  roles: {
    api: {
      handlers: [...stockProjection.handlers, ReportsHandlers, AnnouncementsHandlers],
      providers: [...stockProjection.providers, AnnouncementProjectionBootstrap],
    },
  },
});
