import type { ClientSaveStockBody } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** One tag per stock, shared by name with the client dashboard (and invalidated by staff stock changes). */
const clientStockTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ClientStock'] });

export const clientStockApi = clientStockTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/ClientStock/?combinedTicker: needs any role on the stock (403 otherwise). */
    clientStock: build.query<ResponseOf<typeof routes.stocks.clientGet>, string>({
      query: (combinedTicker) => callRoute(routes.stocks.clientGet, { query: { combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'ClientStock', id: combinedTicker }],
    }),
    /** POST /api/ClientStock: the stock plus only the fields a client may change. */
    saveClientStock: build.mutation<ResponseOf<typeof routes.stocks.clientSave>, ClientSaveStockBody>({
      query: (body) => callRoute(routes.stocks.clientSave, { body }),
      // The page shows the saved stock at once; the client dashboard (same tag) refetches.
      async onQueryStarted(body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(clientStockApi.util.upsertQueryData('clientStock', body.combinedTicker, data.stock));
        } catch {
          // The caller shows the error.
        }
      },
      invalidatesTags: (result, _error, body) =>
        result ? [{ type: 'ClientStock', id: body.combinedTicker }] : [],
    }),
  }),
});

export const { useClientStockQuery, useSaveClientStockMutation } = clientStockApi;
