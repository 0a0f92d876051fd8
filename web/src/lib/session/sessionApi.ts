import type { LoginCredentials, SessionUserDto, SuccessDto } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { basicAuthorization } from './basicAuth';

/** Session calls of spec section 7 (Auth). The server keeps the session in httpOnly cookies. */
export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/admin/refreshtoken: renews the session cookies and returns the user; 401 = signed out. */
    refreshToken: build.mutation<SessionUserDto, void>({
      query: () => ({ url: '/admin/refreshtoken', method: 'GET' }),
      extraOptions: { skipReloadOnUnauthorized: true },
    }),
    /** GET /api/login with basic auth; 401 = wrong username or password. */
    login: build.mutation<SessionUserDto, LoginCredentials>({
      query: ({ username, password }) => ({
        url: '/login',
        method: 'GET',
        headers: { Authorization: basicAuthorization(username, password) },
      }),
      extraOptions: { skipReloadOnUnauthorized: true },
    }),
    /** DELETE /api/login: ends the session and clears its cookies. */
    logout: build.mutation<SuccessDto, void>({
      query: () => ({ url: '/login', method: 'DELETE' }),
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation } = sessionApi;
