import type { DateRangeQuery } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** The stock list; stock changes on the stock page invalidate it by name. */
const staffDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['StockList'] });

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
