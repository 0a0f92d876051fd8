import type { LoginCredentials } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';
import { basicAuthorization } from './basicAuth';

/** Session calls of spec section 7 (Auth). The server keeps the session in httpOnly cookies. */
export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/refreshtoken: renews the session cookies and returns the user; 401 = signed out. */
    refreshToken: build.mutation<ResponseOf<typeof routes.users.refreshToken>, void>({
      query: () => callRoute(routes.users.refreshToken),
      extraOptions: { skipReloadOnUnauthorized: true },
    }),
    /** GET /api/login with basic auth; 401 = wrong username or password. */
    login: build.mutation<ResponseOf<typeof routes.users.login>, LoginCredentials>({
      query: ({ username, password }) =>
        callRoute(routes.users.login, { headers: { Authorization: basicAuthorization(username, password) } }),
      extraOptions: { skipReloadOnUnauthorized: true },
    }),
    /** DELETE /api/login: ends the session and clears its cookies. */
    logout: build.mutation<ResponseOf<typeof routes.users.logout>, void>({
      query: () => callRoute(routes.users.logout),
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation } = sessionApi;
