import type { ClientDashboardDto } from '@irp/proto';
import { baseApi } from '@/api/baseApi';

/** The client stock page's per-stock tag: saving a client stock refreshes the dashboard too. */
const clientDashboardTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['ClientStock'] });

export const clientDashboardApi = clientDashboardTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/clientDashboard/: the stocks in the user's stockRoles. */
    clientDashboard: build.query<ClientDashboardDto, void>({
      query: () => '/clientDashboard/',
      // One tag per stock: saving a client stock invalidates its tag, which refreshes this list too.
      providesTags: (result) =>
        (result?.stocks ?? []).map((stock) => ({ type: 'ClientStock' as const, id: stock.combinedTicker })),
    }),
  }),
});

export const { useClientDashboardQuery } = clientDashboardApi;
