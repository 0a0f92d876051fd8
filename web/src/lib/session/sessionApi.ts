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
      /**
       * GET /api/login with basic auth; 401 = wrong username or password, or (a body with `secondFactor`)
       * a right password still waiting for its second factor (issue 34; a ticket cookie carries it).
       */
      login: mutation(routes.users.login, {
        request: ({ username, password }: LoginCredentials) => ({
          headers: { Authorization: basicAuthorization(username, password) },
        }),
        extraOptions: { skipReloadOnUnauthorized: true },
      }),
      /** POST /api/login/passkey/options: the passkey assertion's options for the ticket's user. */
      signInPasskeyOptions: mutation(routes.users.signInPasskeyOptions, {
        extraOptions: { skipReloadOnUnauthorized: true },
      }),
      /** POST /api/login/passkey: the sign-in's second step with a passkey; the session user, as login's. */
      signInPasskey: mutation(routes.users.signInPasskey, {
        extraOptions: { skipReloadOnUnauthorized: true },
      }),
      /** POST /api/login/code: the second step with an authenticator or recovery code; 401 = refused/expired. */
      signInCode: mutation(routes.users.signInCode, {
        extraOptions: { skipReloadOnUnauthorized: true },
      }),
      /** DELETE /api/login: ends the session and clears its cookies. */
      logout: mutation(routes.users.logout),
    })),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useSignInPasskeyOptionsMutation,
  useSignInPasskeyMutation,
  useSignInCodeMutation,
} = sessionApi;
