import type { AdminSaveStockBody, ArchiveStockBody, ChangeTickerBody, SaveNoteBody } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
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
 * Stock page calls of spec section 7 (Stocks and Notes), typed by proto's route table (docs/api/stocks.md).
 * A non-2xx answer is an error (for saves with `success: false, stock: null`), so a result is a success.
 */
export const stocksApi = stockTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * GET /api/stock/{combinedTicker}: for an admin proto's AdminStockPage (the stock with its announcements
     * and initial poll). Report-runners get proto's ReportRunnerStock (the summary fields); their stock page
     * shows only tabs that read those.
     */
    getStock: build.query<StaffStock, string>({
      query: (combinedTicker) => callRoute(routes.stocks.get, { params: { combinedTicker } }),
      // The table's answer is the admin's page or the report-runner's summary (a union); the page reads it
      // as StaffStock, whose admin-only fields only the admin-only tabs read.
      transformResponse: (page: ResponseOf<typeof routes.stocks.get>) => page as StaffStock,
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Stock', id: combinedTicker }],
    }),
    /** POST /api/admin/stocks: no `id` creates, an `id` updates only the fields sent. */
    saveStock: build.mutation<ResponseOf<typeof routes.stocks.save>, AdminSaveStockBody>({
      query: (body) => callRoute(routes.stocks.save, { body }),
      invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
    }),
    changeTicker: build.mutation<ResponseOf<typeof routes.stocks.changeTicker>, ChangeTickerBody>({
      query: (body) => callRoute(routes.stocks.changeTicker, { body }),
      invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
    }),
    /** `archived` is always sent, so a double click cannot toggle twice. */
    archiveStock: build.mutation<
      ResponseOf<typeof routes.stocks.archive>,
      ArchiveStockBody & { archived: boolean }
    >({
      query: (body) => callRoute(routes.stocks.archive, { body }),
      invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
    }),
    /** A fresh unused key on every call, so a mutation (never cached); it is stored only by Save. */
    newApiKey: build.mutation<ResponseOf<typeof routes.stocks.newApiKey>, void>({
      query: () => callRoute(routes.stocks.newApiKey),
    }),
    getExchanges: build.query<ResponseOf<typeof routes.stocks.exchanges>, void>({
      query: () => callRoute(routes.stocks.exchanges),
    }),
    getNotes: build.query<ResponseOf<typeof routes.stocks.notes>, string>({
      query: (combinedTicker) => callRoute(routes.stocks.notes, { query: { ticker: combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Notes', id: combinedTicker }],
    }),
    /** `ticker` is the combinedTicker. */
    saveNote: build.mutation<ResponseOf<typeof routes.stocks.saveNote>, SaveNoteBody>({
      query: (body) => callRoute(routes.stocks.saveNote, { body }),
      invalidatesTags: (_result, error, { ticker }) => (error ? [] : [{ type: 'Notes', id: ticker }]),
    }),
    getVersionHistory: build.query<ResponseOf<typeof routes.stocks.versionHistory>, string>({
      query: (combinedTicker) =>
        callRoute(routes.stocks.versionHistory, { query: { ticker: combinedTicker } }),
      providesTags: ['VersionHistory'],
    }),
    getStockReferers: build.query<ResponseOf<typeof routes.stocks.stockReferers>, string>({
      query: (combinedTicker) =>
        callRoute(routes.stocks.stockReferers, { query: { ticker: combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Referers', id: combinedTicker }],
    }),
  }),
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
