import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, requestOf } from '@/test/render';
import { createAppBaseQuery } from './baseQuery';
import { callRoute } from './route';
import { routes } from './routes';

function queryApi(type: 'query' | 'mutation' = 'query'): BaseQueryApi {
  return {
    signal: new AbortController().signal,
    abort: () => {},
    dispatch: () => {},
    getState: () => ({}),
    extra: undefined,
    endpoint: 'test',
    type,
  };
}

function setup({
  response = () => jsonResponse({ ok: true }),
  token = 'csrf-1',
}: { response?: () => Response; token?: string | null } = {}) {
  const fetchFn = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(response()));
  const onUnauthorized = vi.fn();
  const baseQuery = createAppBaseQuery({
    // The app's base query has no baseUrl (paths are whole); the test page's origin stands in for it.
    baseUrl: 'http://portal.test',
    onUnauthorized,
    readCsrfToken: () => token ?? undefined,
    fetchFn,
  });
  return { baseQuery, fetchFn, onUnauthorized };
}

describe('app base query', () => {
  it("sends credentials to the route's path and no CSRF header on GET", async () => {
    const { baseQuery, fetchFn } = setup();
    const result = await baseQuery(callRoute(routes.stocks.list), queryApi(), {});
    expect(result.data).toEqual({ ok: true });
    // Frozen at the top, so the store's Immer reducer keeps the answer as given (keepAsGiven).
    expect(Object.isFrozen(result.data)).toBe(true);
    const request = requestOf(fetchFn);
    expect(request.url).toBe('http://portal.test/api/admin/stocks');
    expect(request.credentials).toBe('include');
    expect(request.headers.get('x-xsrf-token')).toBeNull();
  });

  it.each(['POST', 'DELETE', 'PUT', 'PATCH', 'delete'])(
    'echoes the XSRF-TOKEN cookie on %s',
    async (method) => {
      const { baseQuery, fetchFn } = setup();
      await baseQuery(
        { url: routes.users.login.path, method, body: method === 'POST' ? { a: 1 } : undefined },
        queryApi('mutation'),
        {},
      );
      expect(requestOf(fetchFn).headers.get('X-XSRF-TOKEN')).toBe('csrf-1');
    },
  );

  it('sends no CSRF header when there is no cookie', async () => {
    const { baseQuery, fetchFn } = setup({ token: null });
    await baseQuery(callRoute(routes.users.logout), queryApi('mutation'), {});
    expect(requestOf(fetchFn).headers.has('x-xsrf-token')).toBe(false);
  });

  it('reloads the page on a 401', async () => {
    const { baseQuery, onUnauthorized } = setup({ response: () => jsonResponse({ statusCode: 401 }, 401) });
    const result = await baseQuery(callRoute(routes.stocks.list), queryApi(), {});
    expect(result.error?.status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not reload on a 401 the endpoint expects', async () => {
    const { baseQuery, onUnauthorized } = setup({ response: () => jsonResponse({ statusCode: 401 }, 401) });
    const result = await baseQuery(callRoute(routes.users.login), queryApi(), {
      skipReloadOnUnauthorized: true,
    });
    expect(result.error?.status).toBe(401);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('passes other errors to the caller without reloading', async () => {
    const { baseQuery, onUnauthorized } = setup({
      response: () => jsonResponse({ errorMessage: 'nope' }, 403),
    });
    const result = await baseQuery(callRoute(routes.stocks.list), queryApi(), {});
    expect(result.error).toEqual({ status: 403, data: { errorMessage: 'nope' } });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
