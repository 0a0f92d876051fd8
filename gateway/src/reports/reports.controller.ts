import {
  GenerateReportFormSchema,
  PublicGenerateReportBodySchema,
  ReportsQuerySchema,
  SaveMarketDataBodySchema,
  SessionUser,
  StockIdQuerySchema,
  Topics,
  UpdateChartDataBodySchema,
  routes,
} from '@irp/proto';
import { Body, Controller, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import { Route } from '../routing/route';
import { ReportSearchLimits } from './report-search-limits';

/**
 * Spec section 7's market data, sync and Reports calls, each asking the reports service: the Market tab's
 * save and Stock Data (display and update), the two jobs on demand, report generation (the Reports tab's
 * multipart form of text fields), the stock's reports, and the public report page's read and date-range form.
 */
@Controller()
export class ReportsController {
  private readonly longMs: number;

  constructor(
    private readonly services: ServicesClient,
    private readonly searchLimits: ReportSearchLimits,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'REPORTS_REQUEST_TIMEOUT_MS'>,
  ) {
    this.longMs = config.REPORTS_REQUEST_TIMEOUT_MS;
  }

  @Route(routes.reports.saveMarketData)
  saveMarketData(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Body() body: z.output<typeof SaveMarketDataBodySchema>,
  ) {
    return this.services.request(Topics.ReportsSaveMarketData, {
      actor,
      combinedTicker: combinedTicker.trim(),
      fields: body,
    });
  }

  @Route(routes.reports.getChartData)
  async getChartData(@Query() q: z.output<typeof StockIdQuerySchema>) {
    return (await this.services.request(Topics.ReportsChartData, { stockId: q.id })).rows;
  }

  @Route(routes.reports.updateChartData)
  async updateChartData(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof UpdateChartDataBodySchema>,
  ) {
    // The provider's refusal or outage is the answer's errorMessage (the entry's `refusal`).
    const { rowCount } = await this.services.request(
      Topics.ReportsUpdateChartData,
      { actor, stockId: body.id },
      this.longMs,
    );
    return { success: true, rowCount, errorMessage: null };
  }

  @Route(routes.reports.syncWatchlist)
  syncWatchlist(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.ReportsSyncWatchlist, { actor }, this.longMs);
  }

  @Route(routes.reports.runPriorDay)
  runPriorDay(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.ReportsRunPriorDay, { actor }, this.longMs);
  }

  @Route(routes.reports.generateReport)
  async generateReport(
    @CurrentUser() actor: SessionUser,
    @Body() form: z.output<typeof GenerateReportFormSchema>,
  ) {
    const report = await this.services.request(
      Topics.ReportsGenerate,
      {
        actor,
        combinedTicker: form.Ticker,
        startDate: form.StartDate,
        endDate: form.EndDate,
        peers: form.Peers,
        comparativeTradingActivity: form.ComparativeTradingActivity,
        priceOverlay: form.PriceOverlay,
        allowSearch: form.AllowSearch,
      },
      this.longMs,
    );
    return { report, errorMessage: null };
  }

  @Route(routes.reports.reports)
  async reports(@Query() q: z.output<typeof ReportsQuerySchema>) {
    return (await this.services.request(Topics.ReportsList, { combinedTicker: q.ticker })).reports;
  }

  @Route(routes.reports.report)
  report(@Param('guid') guid: string) {
    return this.services.request(Topics.ReportsGet, { guid: guid.trim() });
  }

  @Route(routes.reports.publicGenerateReport)
  async publicGenerateReport(
    @Body() body: z.output<typeof PublicGenerateReportBodySchema>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    // Counted after validation: each search computes and stores a report (the service bounds how many).
    await this.searchLimits.search(body.Guid, req, res);
    const report = await this.services.request(
      Topics.ReportsRegenerate,
      { guid: body.Guid, startDate: body.StartDate, endDate: body.EndDate },
      this.longMs,
    );
    return { report, errorMessage: null };
  }
}
