import type { EndpointBuilder } from '@reduxjs/toolkit/query';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AppBaseQuery } from './baseQuery';
import { routeForm, type BodyOf, type ResponseOf } from './route';
import { routeEndpoints } from './routeEndpoints';
import { routes } from './routes';

type Definition = { type: 'query' | 'mutation'; query: (arg: unknown) => unknown };

/** RTK Query's builder as far as routeEndpoints uses it: the definition, marked with its kind. */
const build = {
  query: (definition: object) => ({ ...definition, type: 'query' }),
  mutation: (definition: object) => ({ ...definition, type: 'mutation' }),
} as unknown as EndpointBuilder<AppBaseQuery, 'User', 'api'>;

const endpoints = routeEndpoints(build, ({ query, mutation }) => ({
  users: query(routes.users.list),
  user: query(routes.users.get, {
    request: (id: string) => ({ params: { id } }),
    providesTags: (_result, _error, id) => [{ type: 'User', id }],
  }),
  changeOwnPassword: mutation(routes.users.changeOwnPassword),
  refreshAccounting: mutation(routes.invoicing.refreshAccounting, { request: () => ({ body: {} }) }),
  unassigned: query(routes.invoicing.accountingPage, { transformResponse: (page) => page.invoices }),
  generateReport: mutation(routes.reports.generateReport, {
    request: (ticker: string) => ({
      body: routeForm(routes.reports.generateReport, { Ticker: ticker, Peers: 'RIO:ASX' }),
    }),
  }),
}));

const definition = (name: keyof typeof endpoints) => endpoints[name] as unknown as Definition;

describe('routeEndpoints', () => {
  it("calls the route's method and path, with what `request` makes of the argument", () => {
    expect(definition('user').type).toBe('query');
    expect(definition('user').query('u/1')).toEqual({ url: '/api/users/u%2F1', method: 'GET' });
    expect(definition('users').query(undefined)).toEqual({ url: '/api/users/', method: 'GET' });
    expect(definition('refreshAccounting').query(undefined)).toEqual({
      url: '/api/admin/refreshAccounting',
      method: 'POST',
      body: {},
    });
  });

  it('sends the argument as the body without `request`', () => {
    const body = { currentPassword: 'a', newPassword: 'b' };
    expect(definition('changeOwnPassword').type).toBe('mutation');
    expect(definition('changeOwnPassword').query(body)).toEqual({
      url: '/api/account/password',
      method: 'POST',
      body,
    });
  });

  it("keeps RTK Query's own options (tags) as the feature wrote them", () => {
    expect(endpoints.user).toHaveProperty('providesTags');
  });

  it("types the argument and the result from the route's entry", () => {
    type ArgOf<E> = E extends { query: (arg: infer A) => unknown } ? A : never;
    type ResultOf<E> = E extends { providesTags?: infer P }
      ? P extends (result: infer R, ...rest: never[]) => unknown
        ? Exclude<R, undefined>
        : never
      : never;
    expectTypeOf<ArgOf<typeof endpoints.users>>().toEqualTypeOf<void>();
    expectTypeOf<ArgOf<typeof endpoints.user>>().toEqualTypeOf<string>();
    expectTypeOf<ArgOf<typeof endpoints.changeOwnPassword>>().toEqualTypeOf<
      BodyOf<typeof routes.users.changeOwnPassword>
    >();
    expectTypeOf<ArgOf<typeof endpoints.refreshAccounting>>().toEqualTypeOf<void>();
    expectTypeOf<ResultOf<typeof endpoints.user>>().toEqualTypeOf<ResponseOf<typeof routes.users.get>>();
    expectTypeOf<ResultOf<typeof endpoints.unassigned>>().toEqualTypeOf<
      ResponseOf<typeof routes.invoicing.accountingPage>['invoices']
    >();
  });

  it('refuses, at compile time, a route that needs more than a body declared without `request`', () => {
    routeEndpoints(build, ({ query }) => ({
      // @ts-expect-error GET /api/users/{id} needs its id: the endpoint says how with `request`.
      user: query(routes.users.get),
    }));
  });
});

describe('routeForm', () => {
  it("puts the route's text fields and its file in a FormData, leaving out what is undefined or null", () => {
    const file = new File(['%PDF-1.4'], 'results.pdf', { type: 'application/pdf' });
    const form = routeForm(routes.announcements.save, { headline: 'Results', sendGuid: undefined, file });
    expect([...form.keys()]).toEqual(['headline', 'file']);
    expect((form.get('file') as File).name).toBe('results.pdf');
    expect([...routeForm(routes.announcements.save, { headline: 'Results', file: null }).keys()]).toEqual([
      'headline',
    ]);
  });

  it("takes only the route's own field names, and only its form as a multipart body", () => {
    // @ts-expect-error 'headlin' is not a field of the announcement form.
    routeForm(routes.announcements.save, { headlin: 'Results' });
    // @ts-expect-error the report form's Ticker is required (its body schema says so).
    routeForm(routes.reports.generateReport, { Peers: '' });
    // @ts-expect-error the report form is text only: it has no file.
    routeForm(routes.reports.generateReport, { Ticker: 'BHP:ASX', file: new Blob() });
    // @ts-expect-error a JSON route has no form.
    routeForm(routes.users.changeOwnPassword, {});
    routeEndpoints(build, ({ mutation }) => ({
      // @ts-expect-error a FormData built by hand is not the route's form.
      save: mutation(routes.reports.generateReport, { request: () => ({ body: new FormData() }) }),
    }));
  });
});
