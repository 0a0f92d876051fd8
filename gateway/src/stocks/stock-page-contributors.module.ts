import { Module, Type } from '@nestjs/common';
import { ReportsStockPageContributor } from '../reports/reports.stock-page-contributor';
import { STOCK_PAGE_CONTRIBUTORS, StockPageContributor } from './stock-page-contributor';

/**
 * The contributors the admin stock page asks beside the stock and its announcements: the reports service
 * (`currentMarketData`, the Market tab). A service adds its gateway adapter class here and nothing else
 * changes (like the dashboards' DASHBOARD_CONTRIBUTOR_CLASSES).
 */
export const STOCK_PAGE_CONTRIBUTOR_CLASSES: Type<StockPageContributor>[] = [ReportsStockPageContributor];

@Module({
  providers: [
    ...STOCK_PAGE_CONTRIBUTOR_CLASSES,
    {
      provide: STOCK_PAGE_CONTRIBUTORS,
      useFactory: (...contributors: StockPageContributor[]) => contributors,
      inject: STOCK_PAGE_CONTRIBUTOR_CLASSES,
    },
  ],
  exports: [STOCK_PAGE_CONTRIBUTORS],
})
export class StockPageContributorsModule {}
