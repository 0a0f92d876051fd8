import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { MarketDataService } from '../market/market-data.service';
import { MarketJobs } from '../market/market-jobs';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsHandlers {
  constructor(
    private readonly marketData: MarketDataService,
    private readonly jobs: MarketJobs,
    private readonly reports: ReportsService,
  ) {}

  @HandleRequest(Topics.ReportsSaveMarketData)
  saveMarketData(@Payload() req: HandledRequest<typeof Topics.ReportsSaveMarketData>) {
    return this.marketData.save(req.combinedTicker, req.fields);
  }

  @HandleRequest(Topics.ReportsCurrentMarketData)
  async currentMarketData(@Payload() req: HandledRequest<typeof Topics.ReportsCurrentMarketData>) {
    return { marketData: await this.marketData.current(req.combinedTicker) };
  }

  @HandleRequest(Topics.ReportsChartData)
  async chartData(@Payload() req: HandledRequest<typeof Topics.ReportsChartData>) {
    return { rows: await this.marketData.chartData(req.stockId) };
  }

  @HandleRequest(Topics.ReportsUpdateChartData)
  async updateChartData(@Payload() req: HandledRequest<typeof Topics.ReportsUpdateChartData>) {
    return { rowCount: await this.marketData.updateChartData(req.stockId) };
  }

  @HandleRequest(Topics.ReportsSyncWatchlist)
  async syncWatchlist() {
    // A staff user's sync: the provider's quote of every stock, a manual one included (named in the answer).
    const { success, stocks, updated, failed, errorMessage, manualReplaced } =
      await this.jobs.syncWatchlist('explicit');
    return { success, stocks, updated, failed, errorMessage, manualReplaced };
  }

  @HandleRequest(Topics.ReportsRunPriorDay)
  runPriorDay(@Payload() req: HandledRequest<typeof Topics.ReportsRunPriorDay>) {
    return this.jobs.runPriorDay(req.day);
  }

  @HandleRequest(Topics.ReportsGenerate)
  generate(@Payload() req: HandledRequest<typeof Topics.ReportsGenerate>) {
    return this.reports.generate({ ...req, createdBy: req.actor.username });
  }

  @HandleRequest(Topics.ReportsList)
  async list(@Payload() req: HandledRequest<typeof Topics.ReportsList>) {
    return { reports: await this.reports.list(req.combinedTicker) };
  }

  @HandleRequest(Topics.ReportsGet)
  get(@Payload() req: HandledRequest<typeof Topics.ReportsGet>) {
    return this.reports.get(req.guid);
  }

  @HandleRequest(Topics.ReportsRegenerate)
  regenerate(@Payload() req: HandledRequest<typeof Topics.ReportsRegenerate>) {
    return this.reports.regenerate(req.guid, req.startDate, req.endDate);
  }
}
