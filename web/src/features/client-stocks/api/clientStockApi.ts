import type { ClientStockDto, SaveStockResponseDto } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import type { ClientConfigValues } from '../model/configForm';

/** POST /api/ClientStock: the stock plus only the fields a client may change. */
export type SaveClientStockBody = { combinedTicker: string } & Partial<ClientConfigValues>;

/** One tag per stock, shared by name with the client dashboard (and invalidated by staff stock changes). */
const clientStockTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ClientStock'] });

export const clientStockApi = clientStockTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/ClientStock/?combinedTicker: needs any role on the stock (403 otherwise). */
    clientStock: build.query<ClientStockDto, string>({
      query: (combinedTicker) => ({ url: '/ClientStock/', params: { combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'ClientStock', id: combinedTicker }],
    }),
    saveClientStock: build.mutation<SaveStockResponseDto<ClientStockDto>, SaveClientStockBody>({
      query: (body) => ({ url: '/ClientStock', method: 'POST', body }),
      // The page shows the saved stock at once; the client dashboard (same tag) refetches.
      async onQueryStarted(body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          const saved = data.stock;
          if (data.success && saved) {
            dispatch(clientStockApi.util.upsertQueryData('clientStock', body.combinedTicker, saved));
          }
        } catch {
          // The caller shows the error.
        }
      },
      invalidatesTags: (result, _error, body) =>
        result?.success ? [{ type: 'ClientStock', id: body.combinedTicker }] : [],
    }),
  }),
});

export const { useClientStockQuery, useSaveClientStockMutation } = clientStockApi;
