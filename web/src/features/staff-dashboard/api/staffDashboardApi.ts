import type { DateRangeQuery, StockListDto } from '@irp/proto';
import { baseApi } from '@/api/baseApi';

/**
 * GET /api/admin/{accounting}ReminderEmail/{combinedTicker}: the accounting system's name is given by
 * kind only (spec), so the path says 'accounting'. The route itself arrives with the invoicing issue.
 */
export const reminderEmailPath = (combinedTicker: string): string =>
  `/admin/accountingReminderEmail/${encodeURIComponent(combinedTicker)}`;

/** The reminder is HTML; a failure is the gateway's JSON error body, parsed so its errorMessage shows. */
async function htmlOrErrorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (response.ok) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The stock list; stock changes on the stock page invalidate it by name. */
const staffDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['StockList'] });

export const staffDashboardApi = staffDashboardTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET /api/admin/stocks?startDate&endDate: every stock with the composed dashboard columns. A date
     * left empty is not sent, so the server's default (the current month) applies.
     */
    staffDashboardStocks: build.query<StockListDto, DateRangeQuery>({
      query: ({ startDate, endDate }) => ({
        url: '/admin/stocks',
        params: {
          ...(startDate ? { startDate } : {}),
          ...(endDate ? { endDate } : {}),
        },
      }),
      providesTags: ['StockList'],
    }),
    /** The reminder email (HTML) for a stock's latest invoice; fetched on demand, never cached. */
    staffDashboardReminderEmail: build.mutation<string, string>({
      query: (combinedTicker) => ({
        url: reminderEmailPath(combinedTicker),
        method: 'GET',
        responseHandler: htmlOrErrorBody,
      }),
    }),
  }),
});

export const { useStaffDashboardStocksQuery, useStaffDashboardReminderEmailMutation } = staffDashboardApi;
