import type {
  ExchangeDto,
  Note,
  Referer,
  SaveStockResponseDto,
  Stock,
  StockFields,
  VersionHistory,
} from '@irp/proto';
import { baseApi } from '@/api/baseApi';

/** POST /api/admin/stocks: no `id` creates, an `id` updates only the fields sent. */
export type SaveStockRequest = StockFields & { id?: string };

/** The stock a ticker change or archive names (docs/api/stocks.md). */
export interface StockKey {
  exchange: string;
  ticker: string;
}

export interface ChangeTickerRequest extends StockKey {
  newTicker: string;
}

export interface ArchiveStockRequest extends StockKey {
  /** Sent explicitly so a double click cannot toggle twice. */
  archived: boolean;
}

export interface StockActionResponse {
  success: boolean;
  stock: Stock | null;
  errorMessage?: string | null;
}

export interface SaveNoteRequest {
  /** combinedTicker */
  ticker: string;
  details: string;
}

export interface SaveNoteResponse {
  success: boolean;
  note: Note | null;
  errorMessage?: string | null;
}

/** A stock change shows on the staff dashboard (StockList) and the client pages (ClientStock) too. */
const STOCK_CHANGED = ['Stock', 'StockList', 'ClientStock', 'VersionHistory'] as const;

/**
 * The stock page's cache tags. A stock change also invalidates the tags the staff dashboard (StockList)
 * and the client pages (ClientStock) provide: tags are names, so no feature imports another for them.
 */
const stockTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['Stock', 'StockList', 'ClientStock', 'Notes', 'VersionHistory', 'Referers'],
});

/** Stock page calls of spec section 7 (Stocks and Notes). */
export const stocksApi = stockTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/stock/{combinedTicker}; report-runners get the summary fields only. */
    getStock: build.query<Stock, string>({
      query: (combinedTicker) => `/stock/${encodeURIComponent(combinedTicker)}`,
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Stock', id: combinedTicker }],
    }),
    saveStock: build.mutation<SaveStockResponseDto<Stock>, SaveStockRequest>({
      query: (body) => ({ url: '/admin/stocks', method: 'POST', body }),
      invalidatesTags: (result) => (result?.success ? [...STOCK_CHANGED] : []),
    }),
    changeTicker: build.mutation<StockActionResponse, ChangeTickerRequest>({
      query: (body) => ({ url: '/admin/changeTicker', method: 'POST', body }),
      invalidatesTags: (result) => (result?.success ? [...STOCK_CHANGED] : []),
    }),
    archiveStock: build.mutation<StockActionResponse, ArchiveStockRequest>({
      query: (body) => ({ url: '/admin/archiveStock', method: 'POST', body }),
      invalidatesTags: (result) => (result?.success ? [...STOCK_CHANGED] : []),
    }),
    /** A fresh unused key on every call, so a mutation (never cached); it is stored only by Save. */
    newApiKey: build.mutation<{ apiKey: string }, void>({
      query: () => ({ url: '/admin/apiKey', method: 'GET' }),
    }),
    getExchanges: build.query<ExchangeDto[], void>({
      query: () => '/admin/exchanges/',
    }),
    getNotes: build.query<Note[], string>({
      query: (combinedTicker) => ({ url: '/admin/getNotes', params: { ticker: combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Notes', id: combinedTicker }],
    }),
    saveNote: build.mutation<SaveNoteResponse, SaveNoteRequest>({
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
      // docs/api/stocks.md answers Referer[]; the service's reply is the per-stock record, so take either.
      transformResponse: (response: Referer[] | { referers?: Referer[] }) =>
        Array.isArray(response) ? response : (response.referers ?? []),
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
