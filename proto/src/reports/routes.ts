import { GlobalRole } from '../common/roles';
import { NoBodySchema } from '../common/rest';
import { access, defineRoutes } from '../common/routes';
import { ChartDataRowSchema, MarketDataSchema, ReportSummarySchema, ReportViewSchema } from './records';
import { z } from 'zod';
import {
  MarketTickerParamsSchema,
  GenerateReportFormSchema,
  GenerateReportResponseSchema,
  PublicGenerateReportBodySchema,
  ReportGuidParamsSchema,
  ReportsQuerySchema,
  RunPriorDayResponseSchema,
  SaveMarketDataBodySchema,
  StockIdQuerySchema,
  SyncWatchlistResponseSchema,
  UpdateChartDataBodySchema,
  UpdateChartDataResponseSchema,
} from './rest';

/** The Reports tab: admins and report-runners (spec section 6: report-runners see only the Reports tab). */
const REPORTS_TAB = access.roles(GlobalRole.RunReports);

const PUBLIC_REPORT =
  'a generated report is shared by its link: the guid is 128 random bits, so only those given the link can read it, and it holds market figures only';

/**
 * The reports routes (docs/api/reports.md): spec section 7's market data calls (Market tab), the sync jobs
 * and the Reports calls, with the public report page's two.
 */
export const reportsRoutes = defineRoutes('reports', {
  saveMarketData: {
    method: 'POST',
    path: '/api/admin/saveMarketData/{combinedTicker}',
    access: access.admin(),
    summary:
      "Save the Market tab: the stock's current quote fields (numbers); `updated` is set by the server",
    description:
      'A field left out keeps its value; null or an empty text clears it. Text that is not a number is 400 naming the field.',
    params: MarketTickerParamsSchema,
    body: SaveMarketDataBodySchema,
    response: MarketDataSchema,
  },
  getChartData: {
    method: 'GET',
    path: '/api/admin/getChartData/',
    access: access.admin(),
    summary: "The stock's daily OHLCV (Stock Data: Display), newest first",
    query: StockIdQuerySchema,
    response: z.array(ChartDataRowSchema),
  },
  updateChartData: {
    method: 'POST',
    path: '/api/admin/updateChartData/',
    access: access.admin(),
    summary: "Stock Data: Update: read the stock's daily OHLCV from the market-data provider; its row count",
    description:
      "The provider's refusal or outage is success false with its message ('Updated successfully' otherwise).",
    body: UpdateChartDataBodySchema,
    response: UpdateChartDataResponseSchema,
    refusal: 'errorMessage',
  },
  syncWatchlist: {
    method: 'POST',
    path: '/api/admin/syncWatchlist',
    access: access.admin(),
    summary: 'Read the current quote of every stock without disableMarketData (also run on a schedule)',
    body: NoBodySchema,
    response: SyncWatchlistResponseSchema,
  },
  runPriorDay: {
    method: 'POST',
    path: '/api/admin/runPriorDay',
    access: access.admin(),
    summary: "Load the previous trading day's trades with broker ids of every such stock (also scheduled)",
    description:
      'Idempotent: a stock-day already loaded is skipped. A provider outage is reported to the error email and remembered, so reports over that day say the data is missing.',
    body: NoBodySchema,
    response: RunPriorDayResponseSchema,
  },
  generateReport: {
    method: 'POST',
    path: '/api/admin/generateReport',
    access: REPORTS_TAB,
    summary:
      'Generate a trading-activity report (multipart form: Ticker, StartDate, EndDate, Peers, ComparativeTradingActivity, PriceOverlay, AllowSearch)',
    description:
      "Dates default to the previous calendar month. AllowSearch (the Reports tab's 'Allow search') defaults to false: only a report made with it offers the public page's date-range search. Bad input (end before start, an unknown ticker or peer, a range without trades) is 400 with errorMessage.",
    body: GenerateReportFormSchema,
    multipart: { description: 'text fields only' },
    response: GenerateReportResponseSchema,
  },
  reports: {
    method: 'GET',
    path: '/api/admin/reports',
    access: REPORTS_TAB,
    summary: "The stock's generated reports, newest first",
    query: ReportsQuerySchema,
    response: z.array(ReportSummarySchema),
  },
  report: {
    method: 'GET',
    path: '/api/report/{guid}',
    access: access.public(PUBLIC_REPORT),
    summary: 'A generated report (the public report page)',
    description: 'An unknown guid is 404.',
    params: ReportGuidParamsSchema,
    response: ReportViewSchema,
  },
  publicGenerateReport: {
    method: 'POST',
    path: '/api/report/generateReport',
    access: access.public(
      'the public report page regenerates a report it was given the link of over other dates, only when that report allows search; the new report gets a new random guid',
    ),
    summary:
      "The public page's date-range form: a new report like the one named (Guid) over StartDate-EndDate",
    description:
      'An unknown guid is 404; a report without allowSearch is 403; bad dates or a range without trades 400; past the searches allowed per client address or per report (REPORT_SEARCH_RATE_*), or with as many of its searches kept as allowed (REPORT_REGENERATIONS_PER_REPORT), 429 (Retry-After when it is a rate); each with errorMessage. The same range searched again answers the report already made; a search is kept REPORT_REGENERATION_TTL_MS.',
    body: PublicGenerateReportBodySchema,
    response: GenerateReportResponseSchema,
  },
});
