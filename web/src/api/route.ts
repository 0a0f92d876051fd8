import type { FetchArgs } from '@reduxjs/toolkit/query';
import {
  fillPath,
  type HttpMethod,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  type RouteTable,
} from '@irp/proto';

/**
 * A route as the web app calls it: the method and path of its entry in proto's route table, plus (as a
 * type only) the entry itself, from which its request and response types come. The values are in
 * `./routes.ts`, the mirror scripts/web-routes.mjs writes from the table; proto's table itself holds zod
 * schemas, which must not reach the bundle (web/README.md), so the app never imports it as a value.
 */
export interface WebRoute<E extends { readonly method: HttpMethod; readonly path: string } = AnyEntry> {
  readonly method: E['method'];
  readonly path: E['path'];
  /** Never set: carries the entry's type (`RouteBody`, `RouteResponse`, ... of proto's common/routes.ts). */
  readonly __entry?: E;
}

type AnyEntry = { readonly method: HttpMethod; readonly path: string };

/**
 * The mirror's type: every group and route of the table, each with its entry's literal method and path.
 * Assigning the mirror to it makes a missing, extra or changed route a compile error.
 */
export type WebRoutes = {
  readonly [G in keyof RouteTable]: {
    readonly [R in keyof RouteTable[G]]: WebRoute<Extract<RouteTable[G][R], AnyEntry>>;
  };
};

type EntryOf<R extends WebRoute> = NonNullable<R['__entry']>;

/** The 2xx body of a route: what its endpoint caches (`ResponseOf<typeof routes.stocks.list>`). */
export type ResponseOf<R extends WebRoute> = RouteResponse<EntryOf<R>>;

declare const formOfRoute: unique symbol;
/**
 * A multipart route's body: a FormData that only `routeForm` makes, from the route's own field names, so
 * a form built by hand (a misspelt field) is not taken.
 */
export type RouteForm<R extends WebRoute> = FormData & { readonly [formOfRoute]: R['path'] };

/** The form field of a multipart route's file (`multipart.file` of its entry), never for a text-only form. */
type FileFieldOf<R extends WebRoute> =
  EntryOf<R> extends { readonly multipart: { readonly file: infer F extends string } } ? F : never;

/**
 * What `routeForm` takes for a multipart route: its body schema's fields (required as the schema says), each
 * as the text the form sends, and its file; a field left undefined (or a file null) is not sent.
 */
export type RouteFormFields<R extends WebRoute> =
  EntryOf<R> extends { readonly multipart: object }
    ? { readonly [K in keyof RouteBody<EntryOf<R>>]: string } & {
        readonly [K in FileFieldOf<R>]?: Blob | null;
      }
    : never;

/** What a route takes as its body: the schema's input, or for a multipart route the form `routeForm` makes. */
export type BodyOf<R extends WebRoute> =
  EntryOf<R> extends { readonly multipart: object } ? RouteForm<R> : RouteBody<EntryOf<R>>;
export type QueryOf<R extends WebRoute> = RouteQuery<EntryOf<R>>;
export type ParamsOf<R extends WebRoute> = RouteParams<EntryOf<R>>;

/** One part of a request: required when the route has it and it has required fields, absent when it has none. */
type Part<K extends string, T> = [T] extends [never]
  ? { readonly [P in K]?: undefined }
  : Record<string, never> extends T
    ? { readonly [P in K]?: T }
    : { readonly [P in K]: T };

/** The widget routes also take the stock's API key (`?apiKey=`, spec section 7); no other route does. */
type ApiKeyPart<R extends WebRoute> = R['path'] extends `/api/widget/${string}`
  ? { readonly apiKey: string }
  : { readonly apiKey?: undefined };

/** What a call of the route gives: its path parameters, query and body, each typed by the table. */
export type RouteArgs<R extends WebRoute> = Part<'params', ParamsOf<R>> &
  Part<'query', QueryOf<R>> &
  Part<'body', BodyOf<R>>;

/** The arguments of `callRoute`/`routeHref`: optional when the route needs nothing. */
type ArgsParam<A> = Record<string, never> extends A ? [args?: A] : [args: A];

/** Extra fetch options of a call (the login's Authorization header, a text response's handler). */
export type CallOptions = Pick<FetchArgs, 'headers' | 'responseHandler'>;

type PathValues = Readonly<Record<string, string | number>>;
type QueryValues = Readonly<Record<string, unknown>>;

/** The query's values that are there (undefined and null ones are not sent), or undefined when none is. */
function presentValues(query: QueryValues | undefined): Record<string, unknown> | undefined {
  const present = Object.entries(query ?? {}).filter(([, value]) => value !== undefined && value !== null);
  return present.length ? Object.fromEntries(present) : undefined;
}

/**
 * The FetchArgs of an RTK Query endpoint for a route of the table: its method, its path with the
 * parameters filled in (the base query's baseUrl is '', so the path is the whole address), the query as
 * `params` and the body.
 *
 *   query: (combinedTicker) => callRoute(routes.stocks.get, { params: { combinedTicker } })
 */
export function callRoute<R extends WebRoute>(
  route: R,
  ...[args]: ArgsParam<RouteArgs<R> & CallOptions>
): FetchArgs {
  const { params, query, body, ...rest } = (args ?? {}) as {
    params?: PathValues;
    query?: QueryValues;
    body?: unknown;
  } & CallOptions;
  const present = presentValues(query);
  return {
    url: fillPath(route.path, params),
    method: route.method,
    ...(present ? { params: present } : {}),
    ...(body !== undefined ? { body } : {}),
    ...rest,
  };
}

/**
 * The address of a GET route for a link (a file the browser opens, the widget API): its path with the
 * parameters filled in and the query, and for a widget route the stock's API key.
 */
export function routeHref<R extends WebRoute & { readonly method: 'GET' }>(
  route: R,
  ...[args]: ArgsParam<Omit<RouteArgs<R>, 'body'> & ApiKeyPart<R>>
): string {
  const { params, query, apiKey } = (args ?? {}) as {
    params?: PathValues;
    query?: QueryValues;
    apiKey?: string;
  };
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(presentValues(query) ?? {})) search.set(key, String(value));
  if (apiKey !== undefined) search.set('apiKey', apiKey);
  const text = search.toString();
  return `${fillPath(route.path, params)}${text ? `?${text}` : ''}`;
}

/**
 * The multipart body of a route: its text fields and its file in a FormData, the field names checked
 * against the route's body schema.
 *
 *   routeForm(routes.reports.generateReport, { Ticker: 'BHP:ASX', StartDate: '', ... })
 */
export function routeForm<R extends WebRoute>(_route: R, fields: RouteFormFields<R>): RouteForm<R> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields as Record<string, string | Blob | null | undefined>)) {
    if (value !== undefined && value !== null) form.append(name, value);
  }
  return form as RouteForm<R>;
}
