import { STOCK_LIST_UNAVAILABLE_HEADER, unavailableServicesOf, type DateRangeQuery } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import type { ResponseOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** The staff dashboard's rows and the services that did not answer (their columns are empty). */
export interface StaffDashboardList {
  stocks: ResponseOf<typeof routes.stocks.list>;
  unavailable: string[];
}

/** The stock list; stock changes on the stock page invalidate it by name. */
const staffDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['StockList'] });

export const staffDashboardApi = staffDashboardTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /**
       * GET /api/admin/stocks?startDate&endDate: every stock with the composed dashboard columns. A date
       * left empty is not sent, so the server's default (the current month) applies.
       */
      staffDashboardStocks: query(routes.stocks.list, {
        request: ({ startDate, endDate }: DateRangeQuery) => ({
          query: { startDate: startDate || undefined, endDate: endDate || undefined },
        }),
        // The body is the list; the services whose columns could not be composed are named in a header.
        transformResponse: (stocks, meta): StaffDashboardList => ({
          stocks,
          unavailable: unavailableServicesOf(meta?.response?.headers.get(STOCK_LIST_UNAVAILABLE_HEADER)),
        }),
        providesTags: ['StockList'],
        // A new answer replaces the list whole, not compared with the last one object by object: at 20,000
        // stocks RTK Query and Immer took ~0.5 s of the page's CPU (bench/README.md, stocks-dashboard).
        structuralSharing: false,
      }),
      /**
       * GET /api/admin/accountingReminderEmail/{combinedTicker}: the reminder mail of the stock's unpaid
       * invoices, fetched when its button is clicked (a mutation: never cached, always the latest).
       */
      staffDashboardReminderEmail: mutation(routes.invoicing.reminderEmail, {
        request: (combinedTicker: string) => ({ params: { combinedTicker } }),
      }),
    })),
});

export const { useStaffDashboardStocksQuery, useStaffDashboardReminderEmailMutation } = staffDashboardApi;
