import { AppError, SERVICE_CONFIG } from '@irp/platform';
import { ErrorCode, ReportView } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { GenerateReport } from './generate-report';
import { GetReport } from './get-report';
import { regenerationsRefusal, reportRange } from './report-rules';
import { ReportsRepository } from './reports.repository';

type RegenerationConfig = Pick<
  ReportsConfig,
  'REPORT_REGENERATION_TTL_MS' | 'REPORT_REGENERATIONS_PER_REPORT'
>;

/**
 * The public page's date-range form: a new report like `guid`'s over other dates, if it allows search.
 * Bounded (anyone with the link may ask): a regeneration belongs to the staff report it searches (the root,
 * also when asked from a regeneration), the same range again answers the one stored, at most
 * REPORT_REGENERATIONS_PER_REPORT are kept at once per staff report, and each goes after
 * REPORT_REGENERATION_TTL_MS (PruneRegenerations). The gateway limits the asking per report and per address.
 */
@Injectable()
export class RegenerateReport {
  constructor(
    private readonly reports: GetReport,
    private readonly stored: ReportsRepository,
    private readonly generating: GenerateReport,
    private readonly stocks: StockProjectionService,
    @Inject(SERVICE_CONFIG) private readonly config: RegenerationConfig,
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
    const parentGuid = report.parentGuid ?? report.guid;
    const range = reportRange(startDate, endDate, now);
    if (!range.ok) throw new AppError(ErrorCode.BadRequest, range.message);
    // Those past their expiry go first: they neither answer nor count, nor hold their range's place.
    await this.stored.pruneExpired();
    const same = await this.stored.regeneration(parentGuid, range.startDate, range.endDate);
    if (same) return same.view;
    const refusal = regenerationsRefusal(
      await this.stored.liveRegenerations(parentGuid),
      this.config.REPORT_REGENERATIONS_PER_REPORT,
    );
    if (refusal) throw new AppError(ErrorCode.TooManyRequests, refusal);
    const stock = await this.stocks.get(report.stockId);
    return this.generating.run(
      {
        combinedTicker: stock.combinedTicker,
        startDate: range.startDate,
        endDate: range.endDate,
        peers: report.view.peers,
        comparativeTradingActivity: report.view.comparativeTradingActivity !== null,
        priceOverlay: report.view.priceOverlay,
        allowSearch: true,
        createdBy: null,
        regeneration: {
          parentGuid,
          expiresAt: new Date(now.getTime() + this.config.REPORT_REGENERATION_TTL_MS),
        },
      },
      now,
    );
  }
}
