import type { LoginCredentials } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';
import { basicAuthorization } from './basicAuth';

/** Session calls of spec section 7 (Auth). The server keeps the session in httpOnly cookies. */
export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ mutation }) => ({
      /** GET /api/admin/refreshtoken: renews the session cookies and returns the user; 401 = signed out. */
      refreshToken: mutation(routes.users.refreshToken, {
        extraOptions: { skipReloadOnUnauthorized: true },
      }),
      /** GET /api/login with basic auth; 401 = wrong username or password. */
      login: mutation(routes.users.login, {
        request: ({ username, password }: LoginCredentials) => ({
          headers: { Authorization: basicAuthorization(username, password) },
        }),
        extraOptions: { skipReloadOnUnauthorized: true },
      }),
      /** DELETE /api/login: ends the session and clears its cookies. */
      logout: mutation(routes.users.logout),
    })),
});

export const { useLoginMutation, useLogoutMutation } = sessionApi;
