import { baseApi } from '@/api/baseApi';
import { routeForm, type BodyOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** The Reports tab's form as typed: dates YYYY-MM-DD ('' for the previous calendar month). */
export interface GenerateReportValues {
  /** ticker:exchange */
  ticker: string;
  startDate: string;
  endDate: string;
  /** Tickers separated by commas, semicolons or spaces. */
  peers: string;
  comparativeTradingActivity: boolean;
  priceOverlay: boolean;
  /** 'Allow search': whether the public report page offers its date-range form (off unless ticked). */
  allowSearch: boolean;
}

/** POST /api/admin/generateReport takes a multipart form of text fields (spec section 7). */
export function generateReportFormData(
  values: GenerateReportValues,
): BodyOf<typeof routes.reports.generateReport> {
  return routeForm(routes.reports.generateReport, {
    Ticker: values.ticker,
    StartDate: values.startDate,
    EndDate: values.endDate,
    Peers: values.peers,
    ComparativeTradingActivity: String(values.comparativeTradingActivity),
    PriceOverlay: String(values.priceOverlay),
    AllowSearch: String(values.allowSearch),
  });
}

/** 'Reports' (one list per stock) is this feature's. */
const reportsTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Reports'] });

/** The report calls of spec section 7 (docs/api/reports.md), declared from proto's route table. */
export const reportsApi = reportsTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/admin/reports?ticker: the stock's reports, newest first. */
      reports: query(routes.reports.reports, {
        request: (combinedTicker: string) => ({ query: { ticker: combinedTicker } }),
        providesTags: (_result, _error, combinedTicker) => [{ type: 'Reports', id: combinedTicker }],
      }),
      /** POST /api/admin/generateReport: the new report's view; a refusal is 4xx with errorMessage. */
      generateReport: mutation(routes.reports.generateReport, {
        request: (values: GenerateReportValues) => ({ body: generateReportFormData(values) }),
        invalidatesTags: (result, _error, { ticker }) =>
          result?.report ? [{ type: 'Reports', id: ticker }] : [],
      }),
      /** GET /api/report/{guid}: public, no sign-in. */
      report: query(routes.reports.report, {
        request: (guid: string) => ({ params: { guid } }),
      }),
      /** POST /api/report/generateReport: the public page's date-range form (reports that allow search). */
      regenerateReport: mutation(routes.reports.publicGenerateReport),
    })),
});

export const { useReportsQuery, useGenerateReportMutation, useReportQuery, useRegenerateReportMutation } =
  reportsApi;
