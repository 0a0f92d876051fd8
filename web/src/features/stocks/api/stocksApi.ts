import type {
  AdminSaveStockBody,
  ArchiveStockBody,
  ChangeTickerBody,
  ExchangeDto,
  NewApiKeyDto,
  Note,
  Referer,
  SaveNoteBody,
  SaveNoteResponse,
  StockChangeResponse,
  VersionHistory,
} from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';

/**
 * The answer of a save, ticker change or archive (proto's StockChangeResponseSchema), under the name the
 * stock page's Config tab imports.
 */
export type StockActionResponse = StockChangeResponse;

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
 * Stock page calls of spec section 7 (Stocks and Notes), typed with proto's REST schemas (docs/api/stocks.md).
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
      query: (combinedTicker) => `/stock/${encodeURIComponent(combinedTicker)}`,
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Stock', id: combinedTicker }],
    }),
    /** POST /api/admin/stocks: no `id` creates, an `id` updates only the fields sent. */
    saveStock: build.mutation<StockChangeResponse, AdminSaveStockBody>({
      query: (body) => ({ url: '/admin/stocks', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
    }),
    changeTicker: build.mutation<StockChangeResponse, ChangeTickerBody>({
      query: (body) => ({ url: '/admin/changeTicker', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
    }),
    /** `archived` is always sent, so a double click cannot toggle twice. */
    archiveStock: build.mutation<StockChangeResponse, ArchiveStockBody & { archived: boolean }>({
      query: (body) => ({ url: '/admin/archiveStock', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [...STOCK_CHANGED] : []),
    }),
    /** A fresh unused key on every call, so a mutation (never cached); it is stored only by Save. */
    newApiKey: build.mutation<NewApiKeyDto, void>({
      query: () => ({ url: '/admin/apiKey', method: 'GET' }),
    }),
    getExchanges: build.query<ExchangeDto[], void>({
      query: () => '/admin/exchanges/',
    }),
    getNotes: build.query<Note[], string>({
      query: (combinedTicker) => ({ url: '/admin/getNotes', params: { ticker: combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Notes', id: combinedTicker }],
    }),
    /** `ticker` is the combinedTicker. */
    saveNote: build.mutation<SaveNoteResponse, SaveNoteBody>({
      query: (body) => ({ url: '/admin/saveNote', method: 'POST', body }),
      invalidatesTags: (_result, error, { ticker }) => (error ? [] : [{ type: 'Notes', id: ticker }]),
    }),
    getVersionHistory: build.query<VersionHistory[], string>({
      query: (combinedTicker) => ({
        url: '/admin/getStockVersionHistory',
        params: { ticker: combinedTicker },
      }),
      providesTags: ['VersionHistory'],
    }),
    getStockReferers: build.query<Referer[], string>({
      query: (combinedTicker) => ({ url: '/admin/stockReferers', params: { ticker: combinedTicker } }),
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
