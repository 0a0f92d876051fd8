import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

const referersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Referers'] });

export const referersApi = referersTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query }) => ({
      /** GET /api/admin/referers: every stock's widget hits and the pages they came from (proto's AllReferersSchema). */
      allReferers: query(routes.stocks.referers, { providesTags: ['Referers'] }),
    })),
});

export const { useAllReferersQuery } = referersApi;
