import type { ReportSummary } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { withExchange } from './report-rules';
import { ReportsRepository } from './reports.repository';

/** A stock's stored reports, newest first (the Reports tab). */
@Injectable()
export class ListReports {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  async run(combinedTicker: string): Promise<ReportSummary[]> {
    const stock = await this.stocks.byCombinedTicker(withExchange(combinedTicker));
    return this.reports.list(stock.id);
  }
}
