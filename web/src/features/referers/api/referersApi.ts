import type { StockReferers } from '@irp/proto';
import { baseApi } from '@/api/baseApi';

const referersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Referers'] });

export const referersApi = referersTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/referers: every stock's widget hits and the pages they came from. */
    allReferers: build.query<StockReferers[], void>({
      query: () => '/admin/referers',
      // docs/api/stocks.md answers a bare array; the stocks service's reply wraps it in { stocks }.
      // Accept both so the page does not depend on which one the gateway passes through.
      transformResponse: (response: StockReferers[] | { stocks: StockReferers[] }) =>
        Array.isArray(response) ? response : response.stocks,
      providesTags: ['Referers'],
    }),
  }),
});

export const { useAllReferersQuery } = referersApi;
