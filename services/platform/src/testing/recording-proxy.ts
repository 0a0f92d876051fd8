import { createServer, request as httpRequest, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest, RecordedResponse } from './vendor-contract';

/** One exchange the proxy passed on: the request as the adapter sent it and the reply as the vendor gave it. */
export interface RecordedExchange {
  request: RecordedRequest & { headers: IncomingHttpHeaders };
  response: RecordedResponse & { headers: IncomingHttpHeaders; bytes: Buffer };
}

export interface RecordingProxy {
  /** Point the adapter here instead of at `target`: the same paths, passed on unchanged. */
  url: string;
  exchanges: RecordedExchange[];
  /** The exchanges of one method whose path matches. */
  exchangesOf(method: string, path: RegExp): RecordedExchange[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a stand-in that records each exchange (the contract tests, ADR 0014): the
 * adapter and the stand-in are left as they are, and what passed between them is checked against the
 * vendor's published description afterwards. Bodies are parsed as JSON when they say they are.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const base = new URL(target);
  const exchanges: RecordedExchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const sent = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', base);
      const upstream = httpRequest(
        url,
        { method: req.method, headers: { ...req.headers, host: base.host } },
        (reply) => {
          const back: Buffer[] = [];
          reply.on('data', (c: Buffer) => back.push(c));
          reply.on('end', () => {
            const bytes = Buffer.concat(back);
            const query: Record<string, string | string[]> = {};
            for (const [k, v] of url.searchParams)
              query[k] = k in query ? ([] as string[]).concat(query[k]!, v) : v;
            exchanges.push({
              request: {
                method: req.method ?? 'GET',
                path: url.pathname,
                query,
                headers: req.headers,
                body: jsonOf(req.headers, sent),
              },
              response: {
                status: reply.statusCode ?? 0,
                headers: reply.headers,
                bytes,
                body: jsonOf(reply.headers, bytes),
              },
            });
            res.writeHead(reply.statusCode ?? 502, reply.headers);
            res.end(bytes);
          });
        },
      );
      upstream.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`recording proxy: ${error.message}`);
      });
      upstream.end(sent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    exchangesOf: (method, path) =>
      exchanges.filter((e) => e.request.method === method && path.test(e.request.path)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function jsonOf(headers: IncomingHttpHeaders, bytes: Buffer): unknown {
  if (!bytes.length || !/json/i.test(String(headers['content-type'] ?? ''))) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
