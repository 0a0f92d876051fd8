import type { Mock } from 'vitest';
import { jsonResponse } from '@/test/render';

export interface ApiCall {
  method: string;
  path: string;
  params: URLSearchParams;
  body: unknown;
}

export type Handler = (call: ApiCall) => Response | Promise<Response>;

/**
 * Answers fetch by `METHOD /path`; anything else is a 404 with the gateway's error body. Returns the
 * calls made, JSON bodies parsed.
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
    if (!handler) return errorResponse(404, 'none');
    return handler(call);
  });
  return calls;
}

/** The gateway's error body with `status`. */
export function errorResponse(status: number, errorMessage: string): Response {
  return jsonResponse({ statusCode: status, error: 'Error', message: errorMessage, errorMessage }, status);
}
