import type { StockReferers } from '@irp/proto';
import { baseApi } from '@/api/baseApi';

const referersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Referers'] });

export const referersApi = referersTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/referers: every stock's widget hits and the pages they came from (proto's AllReferersSchema). */
    allReferers: build.query<StockReferers[], void>({
      query: () => '/admin/referers',
      providesTags: ['Referers'],
    }),
  }),
});

export const { useAllReferersQuery } = referersApi;
