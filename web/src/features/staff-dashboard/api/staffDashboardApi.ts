import type { DateRangeQuery } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** The stock list; stock changes on the stock page invalidate it by name. */
const staffDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['StockList'] });

// The invoice cell's 'Copy reminder email' (spec section 2) needs the accounting system's reminder route,
// which proto's route table does not have yet: the invoicing issue adds the route and the button.
export const staffDashboardApi = staffDashboardTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET /api/admin/stocks?startDate&endDate: every stock with the composed dashboard columns. A date
     * left empty is not sent, so the server's default (the current month) applies.
     */
    staffDashboardStocks: build.query<ResponseOf<typeof routes.stocks.list>, DateRangeQuery>({
      query: ({ startDate, endDate }) =>
        callRoute(routes.stocks.list, {
          query: { startDate: startDate || undefined, endDate: endDate || undefined },
        }),
      providesTags: ['StockList'],
    }),
  }),
});

export const { useStaffDashboardStocksQuery } = staffDashboardApi;
