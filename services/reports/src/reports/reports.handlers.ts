import { HandleRequest, HandledRequest, requireAdminActor, requireGlobalRoleOf } from '@irp/platform';
import { GlobalRole, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { LoadPriorDay } from '../market/load-prior-day';
import { MarketDataReads } from '../market/market-data-reads';
import { SaveMarketData } from '../market/save-market-data';
import { SyncWatchlistQuotes } from '../market/sync-watchlist-quotes';
import { UpdateChartData } from '../market/update-chart-data';
import { GenerateReport } from './generate-report';
import { GetReport } from './get-report';
import { ListReports } from './list-reports';
import { RegenerateReport } from './regenerate-report';

/**
 * Kafka entry points of reports; each calls its use case (a file of the same name in reports/ or market/). A
 * change re-checks the signed actor's role itself (issue 34), as the route table asks for it: the gateway's
 * route guard checks first, but anything that can write to the broker with a signed actor must not need more.
 */
@Controller()
export class ReportsHandlers {
  constructor(
    private readonly savingMarketData: SaveMarketData,
    private readonly marketData: MarketDataReads,
    private readonly chartUpdates: UpdateChartData,
    private readonly quotes: SyncWatchlistQuotes,
    private readonly priorDay: LoadPriorDay,
    private readonly generating: GenerateReport,
    private readonly listing: ListReports,
    private readonly reading: GetReport,
    private readonly regenerating: RegenerateReport,
  ) {}

  @HandleRequest(Topics.ReportsSaveMarketData)
  saveMarketData(@Payload() req: HandledRequest<typeof Topics.ReportsSaveMarketData>) {
    requireAdminActor(req.actor, 'save market data');
    return this.savingMarketData.run(req.combinedTicker, req.fields);
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
    requireAdminActor(req.actor, 'update chart data');
    return { rowCount: await this.chartUpdates.run(req.stockId) };
  }

  @HandleRequest(Topics.ReportsSyncWatchlist)
  async syncWatchlist(@Payload() req: HandledRequest<typeof Topics.ReportsSyncWatchlist>) {
    requireAdminActor(req.actor, 'sync the watchlist');
    // A staff user's sync: the provider's quote of every stock, a manual one included (named in the answer).
    const { success, stocks, updated, failed, errorMessage, manualReplaced } =
      await this.quotes.run('explicit');
    return { success, stocks, updated, failed, errorMessage, manualReplaced };
  }

  @HandleRequest(Topics.ReportsRunPriorDay)
  runPriorDay(@Payload() req: HandledRequest<typeof Topics.ReportsRunPriorDay>) {
    requireAdminActor(req.actor, 'load the prior day');
    return this.priorDay.run(req.day);
  }

  @HandleRequest(Topics.ReportsGenerate)
  generate(@Payload() req: HandledRequest<typeof Topics.ReportsGenerate>) {
    requireGlobalRoleOf(req.actor, [GlobalRole.RunReports], 'generate a report');
    return this.generating.run({ ...req, createdBy: req.actor.username });
  }

  @HandleRequest(Topics.ReportsList)
  async list(@Payload() req: HandledRequest<typeof Topics.ReportsList>) {
    return { reports: await this.listing.run(req.combinedTicker) };
  }

  @HandleRequest(Topics.ReportsGet)
  get(@Payload() req: HandledRequest<typeof Topics.ReportsGet>) {
    return this.reading.run(req.guid);
  }

  @HandleRequest(Topics.ReportsRegenerate)
  regenerate(@Payload() req: HandledRequest<typeof Topics.ReportsRegenerate>) {
    return this.regenerating.run(req.guid, req.startDate, req.endDate);
  }
}
