import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { CSRF_COOKIE, CSRF_HEADER } from '@irp/proto';
import { readCookie } from './cookies';

/** Per-endpoint options of the app's base query (`extraOptions` of an endpoint definition). */
export interface AppBaseQueryExtraOptions {
  /**
   * A 401 reloads the page (spec section 7) except where it is the expected answer: the start-up token
   * refresh (signed out) and the login call (wrong password).
   */
  skipReloadOnUnauthorized?: boolean;
}

export type AppBaseQuery = BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  AppBaseQueryExtraOptions,
  FetchBaseQueryMeta
>;

export interface AppBaseQueryOptions {
  baseUrl: string;
  onUnauthorized: () => void;
  readCsrfToken?: () => string | undefined;
  fetchFn?: typeof fetch;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isSafeMethod(method: string | undefined): boolean {
  return SAFE_METHODS.has((method ?? 'GET').toUpperCase());
}

/**
 * Freezes an answer's outermost object, so the store keeps it as the server gave it: Immer neither walks
 * nor deep-freezes a frozen value when a reducer stores it (RTK Query's cache entries are stored by an
 * Immer reducer), which at 20,000 dashboard rows took ~70 ms of the page's main thread per answer
 * (bench/README.md, stocks-dashboard). The rows inside are not frozen: nothing in the app mutates an
 * answer, and the development build's immutability check still watches the whole store.
 */
export function keepAsGiven(data: unknown): void {
  if (data !== null && typeof data === 'object') Object.freeze(data);
}

/**
 * fetchBaseQuery plus the two rules every call follows: cookies are always sent and every state-changing
 * request echoes the XSRF-TOKEN cookie in the X-XSRF-TOKEN header (double-submit CSRF); a 401 reloads the page.
 */
export function createAppBaseQuery({
  baseUrl,
  onUnauthorized,
  readCsrfToken = () => readCookie(CSRF_COOKIE),
  fetchFn,
}: AppBaseQueryOptions): AppBaseQuery {
  const rawBaseQuery = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    fetchFn,
    prepareHeaders: (headers, { arg }) => {
      const method = typeof arg === 'string' ? 'GET' : arg.method;
      if (!isSafeMethod(method)) {
        const token = readCsrfToken();
        if (token) headers.set(CSRF_HEADER, token);
      }
      return headers;
    },
  });

  return async (args, api, extraOptions) => {
    const result = await rawBaseQuery(args, api, extraOptions ?? {});
    keepAsGiven(result.data);
    if (result.error?.status === 401 && !extraOptions?.skipReloadOnUnauthorized) {
      onUnauthorized();
    }
    return result;
  };
}
