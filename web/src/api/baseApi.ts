import { createApi } from '@reduxjs/toolkit/query/react';
import { createAppBaseQuery } from './baseQuery';
import { reloadPage } from './pageReload';

/**
 * The one RTK Query API of the app. A feature adds the cache tags its endpoints provide or invalidate
 * (`baseApi.enhanceEndpoints({ addTagTypes })` in its api file), then its endpoints with `injectEndpoints`.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: createAppBaseQuery({ baseUrl: '/api', onUnauthorized: () => reloadPage() }),
  endpoints: () => ({}),
});
