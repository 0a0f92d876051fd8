import { describe, expect, it } from 'vitest';
import { callRoute, routeHref } from './route';
import { routes } from './routes';

describe('callRoute', () => {
  it("gives the entry's method and path, the parameters filled in and encoded", () => {
    expect(callRoute(routes.stocks.get, { params: { combinedTicker: 'BHP:ASX' } })).toEqual({
      url: '/api/stock/BHP%3AASX',
      method: 'GET',
    });
    expect(callRoute(routes.announcements.commentResponse, { params: { guid: 'a/b' } }).url).toBe(
      '/api/AnnouncementCommentResponse/a%2Fb',
    );
  });

  it('sends the query as params without the values that are not there, and the body as is', () => {
    const announcement = { sendGuid: 'g-1' } as never;
    expect(
      callRoute(routes.announcements.send, {
        params: { combinedTicker: 'BHP:ASX' },
        query: { sendOverride: 'true' },
        body: announcement,
      }),
    ).toEqual({
      url: '/api/Announcement/send/BHP%3AASX',
      method: 'POST',
      params: { sendOverride: 'true' },
      body: announcement,
    });
    // No value at all: no params, so no trailing '?'.
    expect(
      callRoute(routes.announcements.send, {
        params: { combinedTicker: 'BHP:ASX' },
        query: { sendOverride: undefined },
        body: announcement,
      }),
    ).not.toHaveProperty('params');
    expect(callRoute(routes.stocks.list, { query: { startDate: undefined, endDate: '2025-01-31' } })).toEqual(
      {
        url: '/api/admin/stocks',
        method: 'GET',
        params: { endDate: '2025-01-31' },
      },
    );
  });

  it('passes headers through (the login)', () => {
    expect(callRoute(routes.users.login, { headers: { Authorization: 'Basic x' } })).toEqual({
      url: '/api/login',
      method: 'GET',
      headers: { Authorization: 'Basic x' },
    });
    expect(callRoute(routes.users.logout)).toEqual({ url: '/api/login', method: 'DELETE' });
  });

  it('refuses a path parameter without a value', () => {
    expect(() => callRoute(routes.stocks.get, { params: { combinedTicker: '' } })).toThrow(
      'no value for {combinedTicker}',
    );
  });
});

describe('routeHref', () => {
  it('is the path with its parameters and query, and for a widget route the API key', () => {
    expect(routeHref(routes.announcements.pdf, { params: { sendGuid: 'g 1' } })).toBe(
      '/api/Announcement/pdf/g%201',
    );
    expect(routeHref(routes.announcements.diskReport, { query: { includeBillable: 'true' } })).toBe(
      '/api/admin/diskReport?includeBillable=true',
    );
    expect(routeHref(routes.stocks.widgetStock, { apiKey: 'k/1' })).toBe('/api/widget/stock?apiKey=k%2F1');
  });
});
