import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { z } from 'zod';
import { FaultPlan, FaultRuleInput, FaultRules, faultRuleSchema } from './faults';

/**
 * The HTTP scaffolding every vendor stand-in sits on: a route table, JSON and text bodies, the health path
 * (`/standin/health`), the fault-injection control endpoint (`/standin/faults`), request counts, listening
 * on 127.0.0.1 only, and a close() that ends held and keep-alive connections. A stand-in adds its vendor's
 * routes and its own `/standin/` controls.
 */

/** An answer with a status other than 200 in the vendor's error shape (StandInServerOptions.errorBody). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = status,
  ) {
    super(message);
  }
}

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  query: URLSearchParams;
  /** The path pattern's capture groups, URI-decoded. */
  params: string[];
  /** `http://<host header>`: links the stand-in hands out point back at the address the caller used. */
  origin: string;
}

export interface StandInRoute {
  /** '*' for any method. */
  method: string;
  /** An exact path, or a pattern matched against the whole path. */
  path: string | RegExp;
  /** What fault rules and request counts call this route. */
  name: string;
  /** A second name shared by several routes (e.g. every feed route), for rules and counts. */
  group?: string;
  /** False for control routes: no faults, not counted. Default true. */
  faultable?: boolean;
  /** The key fault rules may match (e.g. the ticker a request is about). */
  faultKey?: (ctx: RouteContext) => string | undefined;
  handle(ctx: RouteContext): unknown;
}

export interface ErrorAnswer {
  body: unknown;
  contentType?: string;
}

export interface StandInServerOptions {
  /** 0 (default): any free port. */
  port?: number;
  /** Default 127.0.0.1: a stand-in is never reachable from another machine. */
  host?: string;
  routes: StandInRoute[];
  /** The health path's body (status 200). */
  health?: () => Record<string, unknown>;
  /** The vendor's error shape for a status; default `{ error: message }`. */
  errorBody?: (status: number, message: string, code: number, path: string) => ErrorAnswer;
  /** Fault rules set at start (e.g. faultsFromEnv()). */
  faults?: FaultRuleInput[];
  /** Called by close() before the server stops (a stand-in's own resources). */
  onClose?: () => void | Promise<void>;
}

export interface StandInServer {
  url: string;
  port: number;
  faults: FaultRules;
  /** Faultable requests received so far: all, or those of one route name or group. */
  requests(route?: string): number;
  close(): Promise<void>;
}

export const HEALTH_PATH = '/standin/health';
export const FAULTS_PATH = '/standin/faults';
const MAX_BODY_BYTES = 1024 * 1024;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json; charset=utf-8',
): void {
  res.writeHead(status, { 'content-type': contentType, ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, text: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}

export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(400, 'body larger than 1 MB');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON body; an empty body is `{}`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readText(req);
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
}

/** A body checked by a zod schema; its first problem is a 400. */
export function parseWith<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HttpError(400, `${issue.path.join('.') || 'body'}: ${issue.message}`);
}

const faultsClearSchema = z.object({
  kind: z.enum(['delay', 'fail', 'hold']).optional(),
  route: z.string().optional(),
  key: z.string().optional(),
});

export async function startStandInServer(options: StandInServerOptions): Promise<StandInServer> {
  const host = options.host ?? '127.0.0.1';
  const faults = new FaultRules();
  for (const rule of options.faults ?? []) faults.set(rule);
  const counts = new Map<string, number>();
  let closed = false;
  // Waiting requests (held or delayed) end with close(), so a test that forgot a hold does not hang.
  const waiting = new Set<() => void>();

  const errorAnswer = (status: number, message: string, code: number, path: string) =>
    options.errorBody?.(status, message, code, path) ?? { body: { error: message } };
  const sendError = (
    res: ServerResponse,
    path: string,
    status: number,
    message: string,
    code = status,
    headers: Record<string, string> = {},
  ) => {
    const answer = errorAnswer(status, message, code, path);
    sendJson(res, status, answer.body, headers, answer.contentType);
  };

  /** Resolves after `ms`, when `until()` turns true (checked on every rule change), or on close. */
  const wait = (res: ServerResponse, ms: number | undefined, until: () => boolean = () => false) =>
    new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        stopListening();
        waiting.delete(done);
        res.off('close', done);
        resolve();
      };
      const stopListening = faults.onChange(() => until() && done());
      if (ms !== undefined) timer = setTimeout(done, ms);
      waiting.add(done);
      res.once('close', done);
    });

  /** Applies a request's faults; true when it was answered (failed) or abandoned. */
  const meet = async (plan: FaultPlan, res: ServerResponse, path: string): Promise<boolean> => {
    if (plan.hold) {
      const { rule, maxMs } = plan.hold;
      await wait(res, maxMs, () => !faults.active(rule));
      if (closed || res.destroyed) return true;
    }
    if (plan.delayMs !== undefined) {
      await wait(res, plan.delayMs);
      if (closed || res.destroyed) return true;
    }
    if (plan.fail) {
      const { status, retryAfterSeconds } = plan.fail;
      const retryAfter = retryAfterSeconds ?? (status === 429 ? 1 : undefined);
      sendError(
        res,
        path,
        status,
        status === 429
          ? 'You have exceeded the limit of requests (forced by the stand-in).'
          : `failing on purpose (${FAULTS_PATH})`,
        status,
        retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
      );
      return true;
    }
    return false;
  };

  const controlRoutes: StandInRoute[] = [
    {
      method: 'GET',
      path: HEALTH_PATH,
      name: 'health',
      faultable: false,
      handle: ({ res }) => sendJson(res, 200, options.health?.() ?? { status: 'ok' }),
    },
    {
      method: 'GET',
      path: FAULTS_PATH,
      name: 'faults',
      faultable: false,
      handle: ({ res }) => sendJson(res, 200, { faults: faults.list() }),
    },
    {
      method: 'POST',
      path: FAULTS_PATH,
      name: 'faults',
      faultable: false,
      handle: async ({ req, res }) =>
        sendJson(res, 200, { rule: faults.set(parseWith(faultRuleSchema, await readJson(req))) }),
    },
    {
      method: 'DELETE',
      path: FAULTS_PATH,
      name: 'faults',
      faultable: false,
      handle: ({ res, query }) => {
        faults.clear(parseWith(faultsClearSchema, Object.fromEntries(query)));
        sendJson(res, 200, { faults: faults.list() });
      },
    },
  ];
  const routes = [...controlRoutes, ...options.routes];

  const match = (method: string, path: string): { route: StandInRoute; params: string[] } | undefined => {
    for (const route of routes) {
      if (route.method !== '*' && route.method !== method) continue;
      if (typeof route.path === 'string') {
        if (route.path === path) return { route, params: [] };
        continue;
      }
      const m = route.path.exec(path);
      if (m) return { route, params: m.slice(1).map((p) => decodeURIComponent(p ?? '')) };
    }
    return undefined;
  };

  const count = (name: string | undefined) => {
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number) => {
    const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
    const url = new URL(req.url ?? '/', origin);
    const method = req.method ?? 'GET';
    const found = match(method, url.pathname);
    if (!found) throw new HttpError(404, `No route ${method} ${url.pathname}`);
    const { route, params } = found;
    const ctx: RouteContext = { req, res, url, query: url.searchParams, params, origin };
    if (route.faultable !== false) {
      count('*');
      count(route.name);
      if (route.group !== route.name) count(route.group);
      const plan = faults.take({ name: route.name, group: route.group, key: route.faultKey?.(ctx) });
      if (await meet(plan, res, url.pathname)) return;
    }
    await route.handle(ctx);
  };

  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res, port).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      const path = new URL(req.url ?? '/', 'http://standin').pathname;
      if (error instanceof HttpError) return sendError(res, path, error.status, error.message, error.code);
      sendError(res, path, 500, error instanceof Error ? error.message : String(error), 500);
    });
  });

  return {
    url: `http://${host}:${port}`,
    port,
    faults,
    requests: (route = '*') => counts.get(route) ?? 0,
    close: async () => {
      closed = true;
      for (const done of [...waiting]) done();
      await options.onClose?.();
      // Keep-alive connections (fetch pools them) would otherwise hold close() open.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
