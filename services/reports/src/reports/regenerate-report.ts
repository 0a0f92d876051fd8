import { AppError } from '@irp/platform';
import { ErrorCode, ReportView } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { GenerateReport } from './generate-report';
import { GetReport } from './get-report';

/** The public page's date-range form: a new report like `guid`'s over other dates, if it allows search. */
@Injectable()
export class RegenerateReport {
  constructor(
    private readonly reports: GetReport,
    private readonly generating: GenerateReport,
    private readonly stocks: StockProjectionService,
  ) {}

  async run(
    guid: string,
    startDate: string | undefined,
    endDate: string | undefined,
    now = new Date(),
  ): Promise<ReportView> {
    const report = await this.reports.stored(guid);
    if (!report.allowSearch)
      throw new AppError(ErrorCode.Forbidden, 'This report does not allow searching other dates');
    const stock = await this.stocks.get(report.stockId);
    return this.generating.run(
      {
        combinedTicker: stock.combinedTicker,
        startDate,
        endDate,
        peers: report.view.peers,
        comparativeTradingActivity: report.view.comparativeTradingActivity !== null,
        priceOverlay: report.view.priceOverlay,
        allowSearch: true,
        createdBy: null,
      },
      now,
    );
  }
}
