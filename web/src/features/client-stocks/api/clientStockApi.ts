import type { ClientSaveStockBody } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** One tag per stock, shared by name with the client dashboard (and invalidated by staff stock changes). */
const clientStockTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ClientStock'] });

export const clientStockApi = clientStockTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/ClientStock/?combinedTicker: needs any role on the stock (403 otherwise). */
      clientStock: query(routes.stocks.clientGet, {
        request: (combinedTicker: string) => ({ query: { combinedTicker } }),
        providesTags: (_result, _error, combinedTicker) => [{ type: 'ClientStock', id: combinedTicker }],
      }),
      /** POST /api/ClientStock: the stock plus only the fields a client may change. */
      saveClientStock: mutation(routes.stocks.clientSave, {
        request: (body: ClientSaveStockBody) => ({ body }),
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
    })),
});

export const { useClientStockQuery, useSaveClientStockMutation } = clientStockApi;
