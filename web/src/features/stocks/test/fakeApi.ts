import type { Mock } from 'vitest';
import { jsonResponse } from '@/test/render';

export interface ApiCall {
  method: string;
  path: string;
  params: URLSearchParams;
  body: unknown;
}

type Answer = Response | Promise<Response>;
export type Handler = (call: ApiCall) => Answer;

/**
 * Answers fetch by `METHOD /path` (e.g. 'GET /api/stock/BHP:ASX'); anything else is a 404 with the
 * gateway's error body. Returns the calls made, bodies parsed.
 */
export function serveApi(fetchMock: Mock<typeof fetch>, handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  fetchMock.mockImplementation(async (input) => {
    if (!(input instanceof Request)) throw new Error('fetchBaseQuery always passes a Request');
    const url = new URL(input.url);
    const text = await input.text();
    const call: ApiCall = {
      method: input.method,
      path: decodeURIComponent(url.pathname),
      params: url.searchParams,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${call.path}`];
    if (!handler) {
      return jsonResponse(
        { statusCode: 404, error: 'Not Found', message: 'none', errorMessage: 'none' },
        404,
      );
    }
    return handler(call);
  });
  return calls;
}

/** A promise settled from outside, to hold an answer back. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
