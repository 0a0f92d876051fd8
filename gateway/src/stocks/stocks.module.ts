import { Module } from '@nestjs/common';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { DashboardModule } from '../dashboard/dashboard.module';
import { StockPageContributorsModule } from './stock-page-contributors.module';
import { ClientStockController } from './client-stock.controller';
import { STOCK_DIRECTORY } from '../auth/stock-directory';
import { CachedStockDirectory, stockDirectoryProviders } from './stock-directory.cache';
import { InitialPollStatuses } from './initial-poll-statuses';
import { StockPageComposer } from './stock-page.composer';
import { StockRecordsController } from './stock-records.controller';
import { StocksController } from './stocks.controller';

/**
 * The stocks routes of docs/api/stocks.md, and the Kafka-backed STOCK_DIRECTORY through which the global
 * AuthGuard resolves a route's combinedTicker. Every route asks the stocks service; this module only checks
 * shapes and roles, composes the dashboards' columns and shapes answers per audience.
 */
@Module({
  imports: [AnnouncementsModule, DashboardModule, StockPageContributorsModule],
  controllers: [StocksController, StockRecordsController, ClientStockController],
  providers: [...stockDirectoryProviders, StockPageComposer, InitialPollStatuses],
  exports: [CachedStockDirectory, STOCK_DIRECTORY],
})
export class StocksModule {}
