import { createApi } from '@reduxjs/toolkit/query/react';
import { createAppBaseQuery } from './baseQuery';
import { reloadPage } from './pageReload';

/**
 * The one RTK Query API of the app. A feature adds the cache tags its endpoints provide or invalidate
 * (`baseApi.enhanceEndpoints({ addTagTypes })` in its api file), then its endpoints with `injectEndpoints`,
 * each declared from a route of proto's table by `routeEndpoints` (./routeEndpoints.ts), which calls it
 * through `callRoute` (./route.ts); a route's path is the whole address: hence no baseUrl.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: createAppBaseQuery({ baseUrl: '', onUnauthorized: () => reloadPage() }),
  endpoints: () => ({}),
});
