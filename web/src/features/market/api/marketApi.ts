import { baseApi } from '@/api/baseApi';
import type { BodyOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/**
 * 'ChartData' (one per stock) is this feature's. A saved quote changes the stock page's currentMarketData:
 * the stock page's 'Stock' tag, shared by name (web/README.md).
 */
const marketTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ChartData', 'Stock'] });

/** The Market tab's calls of spec section 7 (docs/api/reports.md), declared from proto's route table. */
export const marketApi = marketTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** POST /api/admin/saveMarketData/{combinedTicker}: answers the quote as stored. */
      saveMarketData: mutation(routes.reports.saveMarketData, {
        request: ({
          combinedTicker,
          body,
        }: {
          combinedTicker: string;
          body: BodyOf<typeof routes.reports.saveMarketData>;
        }) => ({ params: { combinedTicker }, body }),
        invalidatesTags: (result, _error, { combinedTicker }) =>
          result ? [{ type: 'Stock', id: combinedTicker }] : [],
      }),
      /** GET /api/admin/getChartData/?id: the daily rows, newest first (Stock Data: Display). */
      chartData: query(routes.reports.getChartData, {
        request: (stockId: string) => ({ query: { id: stockId } }),
        providesTags: (_result, _error, stockId) => [{ type: 'ChartData', id: stockId }],
      }),
      /** POST /api/admin/updateChartData/ (Stock Data: Update): the row count, or the provider's refusal. */
      updateChartData: mutation(routes.reports.updateChartData, {
        request: (stockId: string) => ({ body: { id: stockId } }),
        invalidatesTags: (result, _error, stockId) =>
          result?.success ? [{ type: 'ChartData', id: stockId }] : [],
      }),
    })),
});

export const { useSaveMarketDataMutation, useLazyChartDataQuery, useUpdateChartDataMutation } = marketApi;
