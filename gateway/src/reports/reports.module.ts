import { Module } from '@nestjs/common';
import { ReportSearchLimits } from './report-search-limits';
import { ReportsController } from './reports.controller';

/**
 * The reports routes of docs/api/reports.md; the stock page's currentMarketData comes from
 * ReportsStockPageContributor, registered with the stock page's contributors.
 */
@Module({ controllers: [ReportsController], providers: [ReportSearchLimits] })
export class ReportsModule {}
