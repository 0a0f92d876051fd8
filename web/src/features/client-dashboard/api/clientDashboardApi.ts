import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** The client stock page's per-stock tag: saving a client stock refreshes the dashboard too. */
const clientDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ClientStock'] });

export const clientDashboardApi = clientDashboardTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query }) => ({
      /** GET /api/clientDashboard/: the stocks in the user's stockRoles. */
      clientDashboard: query(routes.stocks.clientDashboard, {
        // One tag per stock: saving a client stock invalidates its tag, which refreshes this list too.
        providesTags: (result) =>
          (result?.stocks ?? []).map((stock) => ({ type: 'ClientStock' as const, id: stock.combinedTicker })),
      }),
    })),
});

export const { useClientDashboardQuery } = clientDashboardApi;
