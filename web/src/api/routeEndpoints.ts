import type {
  BaseQueryMeta,
  EndpointBuilder,
  MutationDefinition,
  QueryDefinition,
} from '@reduxjs/toolkit/query';
import type { AppBaseQuery } from './baseQuery';
import {
  callRoute,
  type BodyOf,
  type CallOptions,
  type ResponseOf,
  type RouteArgs,
  type WebRoute,
} from './route';

/**
 * What an endpoint's argument becomes: the route's path parameters, query and body, each typed by the
 * table's entry, plus fetch options (the login's Authorization header).
 */
type Request<R extends WebRoute, Arg> = (arg: Arg) => RouteArgs<R> & CallOptions;

/** The route can be called with at most a body: no path parameter, no required query. */
type BodyIsEnough<R extends WebRoute> =
  Record<string, never> extends Omit<RouteArgs<R>, 'body'> ? true : false;

/**
 * The argument of an endpoint declared without `request`: the route's body, or nothing for a route without
 * one (or whose body is the empty object, proto's NoBodySchema). A route that needs more (path parameters,
 * a required query) says how with `request`.
 */
type DefaultArg<R extends WebRoute> = [BodyOf<R>] extends [never]
  ? void
  : [keyof BodyOf<R>] extends [never]
    ? void
    : BodyOf<R>;

type RequestPart<R extends WebRoute, Arg> =
  BodyIsEnough<R> extends true ? { request?: Request<R, Arg> } : { request: Request<R, Arg> };

/** The definition may be left out only where `request` may. */
type DefinitionParam<R extends WebRoute, D> =
  BodyIsEnough<R> extends true ? [definition?: D] : [definition: D];

/**
 * RTK Query's own options of an endpoint (tags, caching, onQueryStarted, extraOptions, ...): everything but
 * what the route gives, the `query` and the raw response's type.
 */
type OwnOptions<D> = Omit<
  Exclude<D, { queryFn(...args: never[]): unknown }>,
  'type' | 'query' | 'queryFn' | 'transformResponse'
>;

type RouteParts<R extends WebRoute, Arg, Result> = RequestPart<R, Arg> & {
  /** Reshapes the route's response (typed by the table) into what the endpoint caches. */
  transformResponse?(
    response: ResponseOf<R>,
    meta: BaseQueryMeta<AppBaseQuery>,
    arg: Arg,
  ): Result | Promise<Result>;
};

type RouteQueryDefinition<
  R extends WebRoute,
  Arg,
  Result,
  Tag extends string,
  Path extends string,
> = QueryDefinition<Arg, AppBaseQuery, Tag, Result, Path, ResponseOf<R>>;
type RouteMutationDefinition<
  R extends WebRoute,
  Arg,
  Result,
  Tag extends string,
  Path extends string,
> = MutationDefinition<Arg, AppBaseQuery, Tag, Result, Path, ResponseOf<R>>;

/**
 * `query` and `mutation` of an RTK Query builder, each declaring its endpoint from a route of the table.
 * Their results are NoInfer: injectEndpoints' context (any endpoint) would otherwise be inferred into the
 * argument and result, making them `any` instead of the route's.
 */
export interface RouteEndpointBuilder<Tag extends string, Path extends string> {
  query<R extends WebRoute, Arg = DefaultArg<R>, Result = ResponseOf<R>>(
    route: R,
    ...definition: DefinitionParam<
      R,
      RouteParts<R, Arg, Result> & OwnOptions<RouteQueryDefinition<R, Arg, Result, Tag, Path>>
    >
  ): NoInfer<RouteQueryDefinition<R, Arg, Result, Tag, Path>>;
  mutation<R extends WebRoute, Arg = DefaultArg<R>, Result = ResponseOf<R>>(
    route: R,
    ...definition: DefinitionParam<
      R,
      RouteParts<R, Arg, Result> & OwnOptions<RouteMutationDefinition<R, Arg, Result, Tag, Path>>
    >
  ): NoInfer<RouteMutationDefinition<R, Arg, Result, Tag, Path>>;
}

/** Without `request`, the argument is the body (undefined for a route without one: none is sent). */
const asBody = (arg: unknown) => ({ body: arg });

/**
 * Declares a feature's endpoints from proto's route table: the method and path come from the route's
 * entry (routes.ts), and so do the types, the response (what is cached, unless `transformResponse`
 * reshapes it) and what `request` gives (path parameters, query, body). The tags, caching and
 * onQueryStarted stay the feature's, as RTK Query writes them:
 *
 *   endpoints: (build) =>
 *     routeEndpoints(build, ({ query, mutation }) => ({
 *       user: query(routes.users.get, {
 *         request: (id: string) => ({ params: { id } }),
 *         providesTags: (_result, _error, id) => [{ type: 'User', id }],
 *       }),
 *       changeOwnPassword: mutation(routes.users.changeOwnPassword), // the argument is the body
 *     })),
 */
export function routeEndpoints<Tag extends string, Path extends string, Definitions>(
  build: EndpointBuilder<AppBaseQuery, Tag, Path>,
  define: (builder: RouteEndpointBuilder<Tag, Path>) => Definitions,
): Definitions {
  // The definitions are RTK Query's, with `query` calling the route; the types above are what they check.
  const endpoint =
    (kind: 'query' | 'mutation') =>
    (route: WebRoute, definition: { request?: (arg: unknown) => object } = {}) => {
      const { request = asBody, ...options } = definition;
      return build[kind]({
        ...options,
        query: (arg: unknown) => callRoute(route, request(arg) as never),
      } as never);
    };
  return define({ query: endpoint('query'), mutation: endpoint('mutation') } as RouteEndpointBuilder<
    Tag,
    Path
  >);
}
