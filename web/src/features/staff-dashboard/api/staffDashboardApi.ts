import { STOCK_LIST_UNAVAILABLE_HEADER, unavailableServicesOf, type DateRangeQuery } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** The staff dashboard's rows and the services that did not answer (their columns are empty). */
export interface StaffDashboardList {
  stocks: ResponseOf<typeof routes.stocks.list>;
  unavailable: string[];
}

/** The stock list; stock changes on the stock page invalidate it by name. */
const staffDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['StockList'] });

export const staffDashboardApi = staffDashboardTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET /api/admin/stocks?startDate&endDate: every stock with the composed dashboard columns. A date
     * left empty is not sent, so the server's default (the current month) applies.
     */
    staffDashboardStocks: build.query<StaffDashboardList, DateRangeQuery>({
      query: ({ startDate, endDate }) =>
        callRoute(routes.stocks.list, {
          query: { startDate: startDate || undefined, endDate: endDate || undefined },
        }),
      // The body is the list; the services whose columns could not be composed are named in a header.
      transformResponse: (stocks: ResponseOf<typeof routes.stocks.list>, meta) => ({
        stocks,
        unavailable: unavailableServicesOf(meta?.response?.headers.get(STOCK_LIST_UNAVAILABLE_HEADER)),
      }),
      providesTags: ['StockList'],
    }),
    /**
     * GET /api/admin/accountingReminderEmail/{combinedTicker}: the reminder mail of the stock's unpaid
     * invoices, fetched when its button is clicked (a mutation: never cached, always the latest).
     */
    staffDashboardReminderEmail: build.mutation<ResponseOf<typeof routes.invoicing.reminderEmail>, string>({
      query: (combinedTicker) => callRoute(routes.invoicing.reminderEmail, { params: { combinedTicker } }),
    }),
  }),
});

export const { useStaffDashboardStocksQuery, useStaffDashboardReminderEmailMutation } = staffDashboardApi;
