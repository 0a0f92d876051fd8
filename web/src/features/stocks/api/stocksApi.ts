import type { ArchiveStockBody } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import type { ResponseOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';

/** The answer of a save, ticker change or archive (the same for the three routes). */
export type StockActionResponse = ResponseOf<typeof routes.stocks.save>;

/** A stock change shows on the staff dashboard (StockList) and the client pages (ClientStock) too. */
const STOCK_CHANGED = ['Stock', 'StockList', 'ClientStock', 'VersionHistory'] as const;

/**
 * The stock page's cache tags. A stock change also invalidates the tags the staff dashboard (StockList)
 * and the client pages (ClientStock) provide: tags are names, so no feature imports another for them.
 */
const stockTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['Stock', 'StockList', 'ClientStock', 'Notes', 'VersionHistory', 'Referers'],
});

/**
 * Stock page calls of spec section 7 (Stocks and Notes), declared from proto's route table
 * (docs/api/stocks.md); a mutation without `request` takes its route's body. A non-2xx answer is an error
 * (for saves with `success: false, stock: null`), so a result is a success.
 */
export const stocksApi = stockTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /**
       * GET /api/stock/{combinedTicker}: for an admin proto's AdminStockPage (the stock with its announcements
       * and initial poll). Report-runners get proto's ReportRunnerStock (the summary fields); their stock page
       * shows only tabs that read those.
       */
      getStock: query(routes.stocks.get, {
        request: (combinedTicker: string) => ({ params: { combinedTicker } }),
        // The table's answer is the admin's page or the report-runner's summary (a union); the page reads it
        // as StaffStock, whose admin-only fields only the admin-only tabs read.
        transformResponse: (page) => page as StaffStock,
        providesTags: (_result, _error, combinedTicker) => [{ type: 'Stock', id: combinedTicker }],
      }),
      /** POST /api/admin/stocks: no `id` creates, an `id` updates only the fields sent. */
      saveStock: mutation(routes.stocks.save, {
        invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
      }),
      changeTicker: mutation(routes.stocks.changeTicker, {
        invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
      }),
      /** `archived` is always sent, so a double click cannot toggle twice. */
      archiveStock: mutation(routes.stocks.archive, {
        request: (body: ArchiveStockBody & { archived: boolean }) => ({ body }),
        invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
      }),
      /** A fresh unused key on every call, so a mutation (never cached); it is stored only by Save. */
      newApiKey: mutation(routes.stocks.newApiKey),
      getExchanges: query(routes.stocks.exchanges),
      getNotes: query(routes.stocks.notes, {
        request: (combinedTicker: string) => ({ query: { ticker: combinedTicker } }),
        providesTags: (_result, _error, combinedTicker) => [{ type: 'Notes', id: combinedTicker }],
      }),
      /** `ticker` is the combinedTicker. */
      saveNote: mutation(routes.stocks.saveNote, {
        invalidatesTags: (_result, error, { ticker }) => (error ? [] : [{ type: 'Notes', id: ticker }]),
      }),
      getVersionHistory: query(routes.stocks.versionHistory, {
        request: (combinedTicker: string) => ({ query: { ticker: combinedTicker } }),
        providesTags: ['VersionHistory'],
      }),
      getStockReferers: query(routes.stocks.stockReferers, {
        request: (combinedTicker: string) => ({ query: { ticker: combinedTicker } }),
        providesTags: (_result, _error, combinedTicker) => [{ type: 'Referers', id: combinedTicker }],
      }),
    })),
});

export const {
  useGetStockQuery,
  useSaveStockMutation,
  useChangeTickerMutation,
  useArchiveStockMutation,
  useNewApiKeyMutation,
  useGetExchangesQuery,
  useGetNotesQuery,
  useSaveNoteMutation,
  useGetVersionHistoryQuery,
  useGetStockReferersQuery,
} = stocksApi;
