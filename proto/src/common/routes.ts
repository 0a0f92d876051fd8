import type { z } from 'zod';
import { GlobalRole, StockRole } from './roles';

/**
 * The route table: every REST route of the gateway is one entry, declared as data in the contract of the
 * service that owns it (`proto/src/<service>/routes.ts`). An entry is the one place that says a route's
 * method and path (spec section 7's exact path), who may call it, what it takes and what it answers. The
 * gateway binds a handler to its entry (`@Route(routes.stocks.save)`) and from it applies the access rule,
 * validates the request, strips the fields the caller may not see and writes the OpenAPI operation
 * (with `x-access`); a handler without an entry stops the gateway at start. The web app calls routes
 * through a mirror of the table (web/src/api/routes.ts, written by scripts/web-routes.mjs and checked by
 * the compiler against these types), so no URL is written twice.
 *
 * This module is zod-free at run time (types only): the web app imports route types from it.
 */

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Where a route names the stock its per-stock roles are checked on, and what the value is. */
export interface StockRef {
  from: 'param' | 'query' | 'body';
  key: string;
  /**
   * What the value names the stock by: its combinedTicker (TICKER:EXCHANGE, the default), its id, the
   * stock's product API key (archived stocks too; no widget hit is recorded), or a comment's guid (the stock
   * the comment was posted on).
   */
  by?: 'combinedTicker' | 'stockId' | 'apiKey' | 'commentGuid';
  /** The 400's message when the request leaves the value out or blank (default '{key} is required'). */
  missingMessage?: string;
  /**
   * Another value naming the same stock, read when this one is left out or blank (a test send names its
   * stock by the product API key, or by id for a user who may not see that key); its own missingMessage then.
   */
  otherwise?: StockRef;
}

/** 'body apiKey (or body stockId)': where a reference and its alternatives are read. */
const describeRef = (ref: StockRef): string =>
  `${ref.from} ${ref.key}${ref.otherwise ? ` (or ${describeRef(ref.otherwise)})` : ''}`;

/**
 * Who may call a route. Nothing is allowed unless an entry says so:
 * - `public`: anyone, signed in or not (sign-in itself, the public PDF, health); `why` says why it is safe.
 * - `widget`: a client website with the stock's API key (?apiKey= or X-Api-Key), no sign-in; the key
 *   names the stock, and an unknown, archived or expired-subscription key is refused.
 * - `signedIn`: a session, and then
 *   - neither `globalRoles` nor `stock`: any signed-in user (their own data: the client dashboard);
 *   - `globalRoles`: any one of these global roles;
 *   - `stock`: any one of `stock.roles` on the stock the request names (`stock.ref`);
 *   - both: either of the two.
 *   Admin passes every role check (spec section 6).
 */
export type Access =
  | { readonly kind: 'public'; readonly why: string }
  | { readonly kind: 'widget' }
  | {
      readonly kind: 'signedIn';
      readonly globalRoles?: readonly GlobalRole[];
      readonly stock?: { readonly roles: readonly StockRole[]; readonly ref: StockRef };
    };

/** The builders entries use, so an access rule reads as a sentence. */
export const access = {
  public: (why: string): Access => ({ kind: 'public', why }),
  widget: (): Access => ({ kind: 'widget' }),
  /** Any signed-in user: only for routes that answer with the caller's own data. */
  anySignedIn: (): Access => ({ kind: 'signedIn' }),
  roles: (...globalRoles: GlobalRole[]): Access => ({ kind: 'signedIn', globalRoles }),
  admin: (): Access => ({ kind: 'signedIn', globalRoles: [GlobalRole.Admin] }),
  stock: (roles: readonly StockRole[], ref: StockRef, alsoGlobal: readonly GlobalRole[] = []): Access => ({
    kind: 'signedIn',
    stock: { roles, ref },
    ...(alsoGlobal.length ? { globalRoles: alsoGlobal } : {}),
  }),
} as const;

/**
 * Fields of a response that need a further role: the gateway deletes them from each object at `at` for a
 * caller lacking the role. `at` is a dotted path into the body ('' the body itself, 'stock', 'stocks[]'
 * for each element of an array). A rule with `stockRoles` is checked on the object's stock (its id at
 * `stockIdField`, default 'id'); one with `globalRoles` on the caller.
 */
export interface RestrictedFields {
  readonly at: string;
  readonly stockIdField?: string;
  readonly rules: readonly {
    readonly fields: readonly string[];
    readonly stockRoles?: readonly StockRole[];
    readonly globalRoles?: readonly GlobalRole[];
  }[];
}

/**
 * A multipart/form-data body: the text fields are `body`, plus one file, or none (a browser form of text
 * fields only, e.g. the Reports tab's; `file` and `maxBytes` left out, a file part is refused).
 */
export interface MultipartSpec {
  /** The form field that carries the file. */
  readonly file?: string;
  /** The gateway setting that caps the file's size. */
  readonly maxBytes?: 'ANNOUNCEMENT_MAX_PDF_BYTES';
  readonly description: string;
}

/** One route as its service declares it (before `defineRoutes` names it). */
export interface RouteSpec {
  readonly method: HttpMethod;
  /** The path with `{name}` parameters, as spec section 7 writes it (e.g. `/api/stock/{combinedTicker}`). */
  readonly path: string;
  readonly access: Access;
  /** One line for the OpenAPI operation. */
  readonly summary: string;
  readonly description?: string;
  /** An object schema: each path parameter is validated by its property. */
  readonly params?: z.AnyZodObject;
  readonly query?: z.ZodTypeAny;
  /** The JSON body; with `multipart`, the form's text fields. */
  readonly body?: z.ZodTypeAny;
  readonly multipart?: MultipartSpec;
  /**
   * The media types a JSON body route takes its body as; left out, JSON and form-encoded (what the
   * gateway's parsers read). Any other type is 415. An empty body is always taken.
   */
  readonly bodyTypes?: readonly string[];
  /** The 2xx body (for a file, `produces` and a schema of unknown). */
  readonly response: z.ZodTypeAny;
  readonly produces?: { readonly mediaType: string; readonly description: string };
  /** A save route: its errors also carry `success: false, stock: null` (spec section 7). */
  readonly save?: true;
  /**
   * A vendor's refusal is an answer, not an error (the accounting system's, the market-data provider's):
   * the service's 400, 404 or 503 for the call is 200 with `success: false`, the response's other fields
   * null and the refusal's message in `errorMessage`, which the screen shows. The response must be an
   * object with `success` and `errorMessage`, its other fields nullable (the gateway checks it at start).
   */
  readonly refusal?: 'errorMessage';
  readonly restricted?: readonly RestrictedFields[];
  /** Success status; 200 unless said (a POST answers 200 too, as the spec's clients expect). */
  readonly status?: number;
}

/** A route of the table: its spec plus its id (`stocks.save`) and OpenAPI tag (the group). */
export type RouteEntry<S extends RouteSpec = RouteSpec> = S & { readonly id: string; readonly group: string };

/** Names a group's routes: each entry gets `id` `<group>.<name>`. */
export function defineRoutes<const G extends string, const T extends Record<string, RouteSpec>>(
  group: G,
  specs: T,
): { readonly [K in keyof T]: RouteEntry<T[K]> } {
  const out: Record<string, RouteEntry> = {};
  for (const [name, spec] of Object.entries(specs)) out[name] = { ...spec, id: `${group}.${name}`, group };
  return out as { readonly [K in keyof T]: RouteEntry<T[K]> };
}

type Schema<R, K extends 'params' | 'query' | 'body' | 'response'> = R extends {
  readonly [P in K]: infer S extends z.ZodTypeAny;
}
  ? S
  : undefined;

/** What a client sends as the route's path parameters (`{}` when it has none). */
export type RouteParams<R> = Schema<R, 'params'> extends z.ZodTypeAny ? z.input<Schema<R, 'params'>> : never;
export type RouteQuery<R> = Schema<R, 'query'> extends z.ZodTypeAny ? z.input<Schema<R, 'query'>> : never;
export type RouteBody<R> = Schema<R, 'body'> extends z.ZodTypeAny ? z.input<Schema<R, 'body'>> : never;
/** The 2xx body a client receives. */
export type RouteResponse<R> =
  Schema<R, 'response'> extends z.ZodTypeAny ? z.infer<Schema<R, 'response'>> : never;

/** Every route of a table, flat. */
export function routeList(
  table: Readonly<Record<string, Readonly<Record<string, RouteEntry>>>>,
): RouteEntry[] {
  return Object.values(table).flatMap((group) => Object.values(group));
}

/** The `{name}` parameters of a path, in order. */
export const pathParams = (path: string): string[] =>
  [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] ?? '');

/** A path with its `{name}` parameters filled in (each URI-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, string | number>> = {}): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/** The access rule as people read it: what OpenAPI's `x-access` summary and a 403's message say. */
export function describeAccess(rule: Access): string {
  if (rule.kind === 'public') return 'public: anyone, no sign-in';
  if (rule.kind === 'widget') return "widget: the stock's API key, no sign-in";
  const parts: string[] = [];
  if (rule.globalRoles?.length) parts.push(`the ${rule.globalRoles.join(' or ')} role`);
  if (rule.stock)
    parts.push(
      `the ${rule.stock.roles.join(' or ')} permission on the stock named by ${describeRef(rule.stock.ref)}`,
    );
  if (!parts.length) return 'signed in: any user';
  const adminOnly = !rule.stock && rule.globalRoles?.length === 1 && rule.globalRoles[0] === GlobalRole.Admin;
  return `signed in with ${parts.join(', or ')}${adminOnly ? '' : ' (Admin passes)'}`;
}
