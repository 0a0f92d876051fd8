import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
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
}

/** POST /api/admin/generateReport takes a multipart form of text fields (spec section 7). */
export function generateReportFormData(
  values: GenerateReportValues,
): BodyOf<typeof routes.reports.generateReport> {
  const form = new FormData();
  form.append('Ticker', values.ticker);
  form.append('StartDate', values.startDate);
  form.append('EndDate', values.endDate);
  form.append('Peers', values.peers);
  form.append('ComparativeTradingActivity', String(values.comparativeTradingActivity));
  form.append('PriceOverlay', String(values.priceOverlay));
  return form;
}

/** 'Reports' (one list per stock) is this feature's. */
const reportsTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Reports'] });

/** The report calls of spec section 7 (docs/api/reports.md), typed by proto's route table. */
export const reportsApi = reportsTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/reports?ticker: the stock's reports, newest first. */
    reports: build.query<ResponseOf<typeof routes.reports.reports>, string>({
      query: (combinedTicker) => callRoute(routes.reports.reports, { query: { ticker: combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Reports', id: combinedTicker }],
    }),
    /** POST /api/admin/generateReport: the new report's view; a refusal is 4xx with errorMessage. */
    generateReport: build.mutation<ResponseOf<typeof routes.reports.generateReport>, GenerateReportValues>({
      query: (values) => callRoute(routes.reports.generateReport, { body: generateReportFormData(values) }),
      invalidatesTags: (result, _error, { ticker }) =>
        result?.report ? [{ type: 'Reports', id: ticker }] : [],
    }),
    /** GET /api/report/{guid}: public, no sign-in. */
    report: build.query<ResponseOf<typeof routes.reports.report>, string>({
      query: (guid) => callRoute(routes.reports.report, { params: { guid } }),
    }),
    /** POST /api/report/generateReport: the public page's date-range form (reports that allow search). */
    regenerateReport: build.mutation<
      ResponseOf<typeof routes.reports.publicGenerateReport>,
      BodyOf<typeof routes.reports.publicGenerateReport>
    >({
      query: (body) => callRoute(routes.reports.publicGenerateReport, { body }),
    }),
  }),
});

export const { useReportsQuery, useGenerateReportMutation, useReportQuery, useRegenerateReportMutation } =
  reportsApi;
