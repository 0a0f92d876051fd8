import { Module, Type } from '@nestjs/common';
import { contributorProviders } from '../common/contributors';
import { ReportsStockPageContributor } from '../reports/reports.stock-page-contributor';
import { STOCK_PAGE_CONTRIBUTORS, StockPageContributor } from './stock-page-contributor';

/**
 * The contributors the admin stock page asks beside the stock and its announcements: the reports service
 * (`currentMarketData`, the Market tab). A service adds its gateway adapter class here and nothing else
 * changes (like the dashboards' DASHBOARD_CONTRIBUTOR_CLASSES).
 */
export const STOCK_PAGE_CONTRIBUTOR_CLASSES: Type<StockPageContributor>[] = [ReportsStockPageContributor];

@Module({
  providers: contributorProviders(STOCK_PAGE_CONTRIBUTORS, STOCK_PAGE_CONTRIBUTOR_CLASSES),
  exports: [STOCK_PAGE_CONTRIBUTORS],
})
export class StockPageContributorsModule {}
