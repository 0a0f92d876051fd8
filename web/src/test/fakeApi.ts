import { fillPath } from '@irp/proto';
import type { Mock } from 'vitest';
import type { WebRoute } from '@/api/route';
import { jsonResponse } from './render';

/** A route's path as the fake API sees it (parameters filled in, decoded): `routePath(routes.stocks.get, { combinedTicker: 'BHP:ASX' })`. */
export const routePath = (route: WebRoute, params: Readonly<Record<string, string | number>> = {}): string =>
  decodeURIComponent(fillPath(route.path, params));

/** A `serveApi` handler key for a route: `[routeKey(routes.stocks.save)]: () => ...`. */
export const routeKey = (route: WebRoute, params: Readonly<Record<string, string | number>> = {}): string =>
  `${route.method} ${routePath(route, params)}`;

/** One call the web app made, as a fake API handler sees it (JSON bodies parsed). */
export interface ApiCall {
  method: string;
  path: string;
  params: URLSearchParams;
  /** A JSON body parsed; a multipart body as its fields (a file as `File name.pdf`). */
  body: unknown;
}

export type Handler = (call: ApiCall) => Response | Promise<Response>;

async function bodyOf(request: Request): Promise<unknown> {
  if (request.headers.get('content-type')?.startsWith('multipart/form-data')) {
    const fields: Record<string, string> = {};
    (await request.formData()).forEach((value, key) => {
      fields[key] = typeof value === 'string' ? value : `File ${(value as File).name ?? ''}`.trim();
    });
    return fields;
  }
  const text = await request.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The gateway's error body with `status`. */
export function errorResponse(status: number, errorMessage: string): Response {
  return jsonResponse({ statusCode: status, error: 'Error', message: errorMessage, errorMessage }, status);
}

/**
 * Answers fetch by `METHOD /path` (e.g. 'GET /api/stock/BHP:ASX'); anything else is a 404 with the
 * gateway's error body. Returns the calls made, in order. The one fake of the gateway for feature tests.
 */
export function serveApi(fetchMock: Mock<typeof fetch>, handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  fetchMock.mockImplementation(async (input) => {
    if (!(input instanceof Request)) throw new Error('fetchBaseQuery always passes a Request');
    const url = new URL(input.url);
    const call: ApiCall = {
      method: input.method,
      path: decodeURIComponent(url.pathname),
      params: url.searchParams,
      body: await bodyOf(input),
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${call.path}`];
    if (!handler) return errorResponse(404, 'none');
    return handler(call);
  });
  return calls;
}
