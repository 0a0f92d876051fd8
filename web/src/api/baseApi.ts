import { createApi } from '@reduxjs/toolkit/query/react';
import { createAppBaseQuery } from './baseQuery';
import { reloadPage } from './pageReload';

/**
 * The one RTK Query API of the app. Features add their endpoints with `baseApi.injectEndpoints` and
 * declare the cache tags they provide and invalidate here.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: createAppBaseQuery({ baseUrl: '/api', onUnauthorized: () => reloadPage() }),
  tagTypes: ['Stock', 'StockList', 'ClientStock', 'Notes', 'VersionHistory', 'Referers'],
  endpoints: () => ({}),
});
