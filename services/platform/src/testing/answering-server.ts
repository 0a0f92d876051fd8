import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an answering server gives back for one request. */
export interface Answer {
  status: number;
  /** Sent as JSON; undefined sends no body. */
  body?: unknown;
  contentType?: string;
}

export interface AnsweringServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 answering each request with what `answer` returns for its method and path: the
 * contract specs serve a vendor's published examples with it in place of the API.
 */
export async function startAnsweringServer(
  answer: (request: { method: string; path: string }) => Answer,
): Promise<AnsweringServer> {
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      const { status, body, contentType } = answer({
        method: req.method ?? 'GET',
        path: new URL(req.url ?? '/', 'http://x').pathname,
      });
      res.writeHead(status, { 'content-type': contentType ?? 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
