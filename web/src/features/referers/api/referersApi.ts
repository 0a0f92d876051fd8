import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

const referersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Referers'] });

export const referersApi = referersTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/referers: every stock's widget hits and the pages they came from (proto's AllReferersSchema). */
    allReferers: build.query<ResponseOf<typeof routes.stocks.referers>, void>({
      query: () => callRoute(routes.stocks.referers),
      providesTags: ['Referers'],
    }),
  }),
});

export const { useAllReferersQuery } = referersApi;
