import { Body, Controller, Get, INestApplication, Param } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  access,
  CSRF_HEADER,
  defineRoutes,
  ErrorCode,
  GlobalRole,
  hasGlobalRole,
  hasStockRole,
  SESSION_COOKIE,
  SessionUser,
  StockRole,
  Topics,
  WidgetStock,
} from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { AppError } from '@irp/platform';
import cookieParser from 'cookie-parser';
import request from 'supertest';
import { z } from 'zod';
import { HttpErrorFilter } from '../common/http-exception.filter';
import { GATEWAY_CONFIG, loadGatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import { Route } from '../routing/route';
import { ServicesStockResolver } from '../routing/services-stock-resolver';
import { STOCK_RESOLVER } from '../routing/stock-resolver';
import { Widget, WidgetContext } from '../widget/widget-context';
import { UNKNOWN_API_KEY, WidgetKeyGuard } from '../widget/widget-key.guard';
import { SharedLimitStore } from '../limits/limit-store';
import { memoryLimitStore } from '../limits/memory-limit-store';
import { WidgetRateLimiter, WidgetUnknownKeyLimiter, WidgetUnknownKeys } from '../widget/widget-rate-limiter';
import { AuthGuard, NO_ROUTE_ENTRY } from './auth.guard';
import { csrfTokenFor } from './csrf';
import { SessionService } from './session.service';
import { STOCK_DIRECTORY } from './stock-directory';

const STOCK = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';
const WIDGET_KEY = 'widget-key-1';
const WIDGET_STOCK: WidgetStock = {
  ticker: 'ABC',
  exchange: 'ASX',
  combinedTicker: 'ABC:ASX',
  isin: '',
  companyName: 'ABC Ltd',
  websiteUrl: 'abc.example.com',
  companyLogoUrl: '',
};
/** Comment guid -> the stock it was posted on. */
const COMMENTS: Record<string, string> = { 'comment-on-abc': STOCK, 'comment-on-xyz': OTHER };

const user = (roles: string[], stockRoles: Record<string, string[]> = {}) =>
  actor({ username: 'u', roles, stockRoles });

const ok = z.object({ ok: z.literal(1) });
const probe = defineRoutes('probe', {
  open: { method: 'GET', path: '/t/public', access: access.public('a probe'), summary: 'p', response: ok },
  signedIn: { method: 'GET', path: '/t/signed-in', access: access.anySignedIn(), summary: 'p', response: ok },
  change: { method: 'POST', path: '/t/signed-in', access: access.anySignedIn(), summary: 'p', response: ok },
  admin: { method: 'GET', path: '/t/admin', access: access.admin(), summary: 'p', response: ok },
  editUsers: {
    method: 'GET',
    path: '/t/users',
    access: access.roles(GlobalRole.EditUsers),
    summary: 'p',
    response: ok,
  },
  stock: {
    method: 'GET',
    path: '/t/stock/{combinedTicker}',
    access: access.stock([StockRole.ViewConfig], { from: 'param', key: 'combinedTicker' }),
    summary: 'p',
    response: ok,
  },
  stockQuery: {
    method: 'GET',
    path: '/t/stock-q',
    access: access.stock([StockRole.ReplyToComment], { from: 'query', key: 'combinedTicker' }),
    summary: 'p',
    response: ok,
  },
  stockById: {
    method: 'GET',
    path: '/t/stock-id/{stockId}',
    access: access.stock([StockRole.ViewConfig], { from: 'param', key: 'stockId', by: 'stockId' }),
    summary: 'p',
    response: ok,
  },
  stockByBody: {
    method: 'POST',
    path: '/t/stock-body',
    access: access.stock([StockRole.ViewConfig], { from: 'body', key: 'id', by: 'stockId' }),
    summary: 'p',
    body: z.object({ id: z.string() }),
    response: ok,
  },
  either: {
    method: 'GET',
    path: '/t/either/{combinedTicker}',
    access: access.stock([StockRole.ViewConfig], { from: 'param', key: 'combinedTicker' }, [
      GlobalRole.RunReports,
    ]),
    summary: 'p',
    response: ok,
  },
  comment: {
    method: 'GET',
    path: '/t/comment/{guid}',
    access: access.stock([StockRole.ReplyToComment], { from: 'param', key: 'guid', by: 'commentGuid' }),
    summary: 'p',
    response: ok,
  },
  widget: {
    method: 'GET',
    path: '/t/widget',
    access: access.widget(),
    summary: 'p',
    response: z.object({ stockId: z.string() }),
  },
});

@Controller()
class ProbeController {
  @Route(probe.open) open() {
    return { ok: 1 as const };
  }
  @Route(probe.signedIn) signedIn() {
    return { ok: 1 as const };
  }
  @Route(probe.change) change() {
    return { ok: 1 as const };
  }
  @Route(probe.admin) admin() {
    return { ok: 1 as const };
  }
  @Route(probe.editUsers) editUsers() {
    return { ok: 1 as const };
  }
  @Route(probe.stock) stock() {
    return { ok: 1 as const };
  }
  @Route(probe.stockQuery) stockQuery() {
    return { ok: 1 as const };
  }
  @Route(probe.stockById) stockById() {
    return { ok: 1 as const };
  }
  @Route(probe.stockByBody) stockByBody(@Body() _body: { id: string }) {
    return { ok: 1 as const };
  }
  @Route(probe.either) either(@Param('combinedTicker') _t: string) {
    return { ok: 1 as const };
  }
  @Route(probe.comment) comment() {
    return { ok: 1 as const };
  }
  @Route(probe.widget) widget(@Widget() widget: WidgetContext) {
    return { stockId: widget.stockId };
  }
  /** Mapped by Nest but in no route table entry: the guard refuses it whoever calls. */
  @Get('t/bare') bare() {
    return { ok: 1 };
  }
}

describe('AuthGuard', () => {
  let app: INestApplication;
  const sessions: Record<string, SessionUser> = {
    admin: user([GlobalRole.Admin]),
    editor: user([GlobalRole.EditUsers]),
    reports: user([GlobalRole.RunReports]),
    client: user([], { [STOCK]: [StockRole.ViewConfig], [OTHER]: [StockRole.ReplyToComment] }),
    nobody: user([]),
  };
  const config = loadGatewayConfig({ KAFKA_BROKERS: '127.0.0.1:1', DATABASE_URL: 'postgres://x@y/z' });
  /** The services' answers the guard asks for (the comment's stock, the widget key's stock), recorded. */
  const asked: string[] = [];
  const services = {
    request: async (topic: string, payload: { guid?: string; apiKey?: string }) => {
      asked.push(topic);
      if (topic === Topics.CommentsGet) {
        const stockId = COMMENTS[payload.guid ?? ''];
        if (!stockId) throw new AppError(ErrorCode.NotFound, 'No such comment');
        return { stockId };
      }
      if (topic === Topics.StocksWidgetLookup) {
        if (payload.apiKey !== WIDGET_KEY) throw new AppError(ErrorCode.Unauthenticated, UNKNOWN_API_KEY);
        return { stockId: STOCK, archived: false, stock: WIDGET_STOCK };
      }
      throw new Error(`unexpected request ${topic}`);
    },
  };

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [ProbeController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: SessionService,
          useValue: {
            tokensOf: (req: { cookies?: Record<string, string> }) => ({
              session: req.cookies?.[SESSION_COOKIE],
            }),
            tryUserOf: async (token?: string) => (token ? sessions[token] : undefined),
          },
        },
        { provide: ServicesClient, useValue: services },
        {
          provide: STOCK_DIRECTORY,
          useValue: { stockIdOf: async (t: string) => ({ 'ABC:ASX': STOCK, 'XYZ:ASX': OTHER })[t] ?? null },
        },
        { provide: STOCK_RESOLVER, useClass: ServicesStockResolver },
        { provide: SharedLimitStore, useValue: memoryLimitStore() },
        WidgetKeyGuard,
        WidgetRateLimiter,
        WidgetUnknownKeys,
        WidgetUnknownKeyLimiter,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.use(cookieParser());
    await app.init();
  });
  afterAll(() => app.close());
  beforeEach(() => (asked.length = 0));

  const as = (who: string) => `${SESSION_COOKIE}=${who}`;
  const get = (path: string, who?: string) => {
    const r = request(app.getHttpServer()).get(path);
    return who ? r.set('Cookie', as(who)) : r;
  };
  const post = (path: string, who: string) =>
    request(app.getHttpServer())
      .post(path)
      .set('Cookie', as(who))
      .set(CSRF_HEADER, csrfTokenFor(config.SESSION_SECRET, who));

  it('refuses a handler without a route table entry, whoever calls (deny by default)', async () => {
    for (const who of [undefined, 'nobody', 'admin']) {
      const res = await get('/t/bare', who);
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toBe(NO_ROUTE_ENTRY);
    }
  });
  it('lets anyone reach a public route', async () => expect((await get('/t/public')).status).toBe(200));
  it('answers 401 to a signed-out request', async () => {
    const res = await get('/t/signed-in');
    expect(res.status).toBe(401);
    expect(res.body.errorMessage).toBe('Not signed in');
    expect((await get('/t/admin')).status).toBe(401);
    expect((await get('/t/stock/ABC:ASX')).status).toBe(401);
  });
  it('lets any signed-in user through access.anySignedIn()', async () => {
    expect((await get('/t/signed-in', 'nobody')).status).toBe(200);
    expect((await get('/t/signed-in', 'client')).status).toBe(200);
    expect((await get('/t/signed-in', 'unknown-session')).status).toBe(401);
  });
  it('answers 403 without the global role', async () => {
    const res = await get('/t/admin', 'editor');
    expect(res.status).toBe(403);
    expect(res.body.errorMessage).toBe('This needs the Admin role');
  });
  it('lets the role holder and Admin through a role rule', async () => {
    expect((await get('/t/users', 'editor')).status).toBe(200);
    expect((await get('/t/users', 'admin')).status).toBe(200);
    const client = await get('/t/users', 'client');
    expect(client.status).toBe(403);
    expect(client.body.errorMessage).toBe('This needs the EditUsers role');
  });
  it('checks the per-stock role by combinedTicker', async () => {
    expect((await get('/t/stock/ABC:ASX', 'client')).status).toBe(200);
    const other = await get('/t/stock/XYZ:ASX', 'client');
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe('You do not have the ViewConfig permission on XYZ:ASX');
    expect((await get('/t/stock/XYZ:ASX', 'admin')).status).toBe(200);
    expect((await get('/t/stock/NOPE:ASX', 'client')).status).toBe(404);
    expect((await get('/t/stock/ABC:ASX', 'reports')).status).toBe(403);
  });
  it('reads combinedTicker from the query when told to, and needs it', async () => {
    expect((await get('/t/stock-q?combinedTicker=XYZ:ASX', 'client')).status).toBe(200);
    expect((await get('/t/stock-q?combinedTicker=ABC:ASX', 'client')).status).toBe(403);
    const missing = await get('/t/stock-q', 'client');
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toBe('combinedTicker is required');
  });
  it('checks the per-stock role by stock id, from a param or the body', async () => {
    expect((await get(`/t/stock-id/${STOCK}`, 'client')).status).toBe(200);
    const other = await get(`/t/stock-id/${OTHER}`, 'client');
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe('You do not have the ViewConfig permission on this stock');
    expect((await post('/t/stock-body', 'client').send({ id: STOCK })).status).toBe(200);
    expect((await post('/t/stock-body', 'client').send({ id: OTHER })).status).toBe(403);
    expect((await post('/t/stock-body', 'admin').send({ id: OTHER })).status).toBe(200);
  });
  it('passes either the global roles or the stock roles of an entry that names both', async () => {
    // The global role passes on any stock, without looking the stock up.
    expect((await get('/t/either/XYZ:ASX', 'reports')).status).toBe(200);
    expect((await get('/t/either/NOPE:ASX', 'reports')).status).toBe(200);
    expect((await get('/t/either/ABC:ASX', 'client')).status).toBe(200);
    const other = await get('/t/either/XYZ:ASX', 'client');
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe('You do not have the ViewConfig permission on XYZ:ASX');
    expect((await get('/t/either/ABC:ASX', 'editor')).status).toBe(403);
    expect((await get('/t/either/ABC:ASX', 'admin')).status).toBe(200);
  });
  it("checks a comment route's stock role on the stock the StockResolver finds for the comment", async () => {
    expect((await get('/t/comment/comment-on-xyz', 'client')).status).toBe(200);
    expect(asked).toEqual([Topics.CommentsGet]);
    const res = await get('/t/comment/comment-on-abc', 'client');
    expect(res.status).toBe(403);
    expect(res.body.errorMessage).toBe(
      "You do not have the ReplyToComment permission on this comment's stock",
    );
    expect((await get('/t/comment/no-such-comment', 'client')).status).toBe(404);
  });
  it('hands a widget route to the WidgetKeyGuard: the API key, not a session, lets it through', async () => {
    const res = await get(`/t/widget?apiKey=${WIDGET_KEY}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ stockId: STOCK });
    expect(asked).toEqual([Topics.StocksWidgetLookup]);
    expect((await get('/t/widget', 'admin')).status).toBe(401);
    const unknown = await get('/t/widget?apiKey=not-a-known-key');
    expect(unknown.status).toBe(401);
    expect(unknown.body.errorMessage).toBe(UNKNOWN_API_KEY);
  });
  it('refuses a state-changing request of a session without the CSRF token', async () => {
    const change = () => request(app.getHttpServer()).post('/t/signed-in').set('Cookie', as('nobody'));
    const none = await change();
    expect(none.status).toBe(403);
    expect(none.body.errorMessage).toBe('Missing or invalid CSRF token (X-XSRF-TOKEN header)');
    expect((await change().set(CSRF_HEADER, csrfTokenFor(config.SESSION_SECRET, 'other'))).status).toBe(403);
    expect((await change().set(CSRF_HEADER, csrfTokenFor(config.SESSION_SECRET, 'nobody'))).status).toBe(200);
  });
});

describe('role rules', () => {
  it('Admin passes every global and stock rule', () => {
    expect(hasGlobalRole(user(['Admin']), ['EditUsers'])).toBe(true);
    expect(hasStockRole(user(['Admin']), STOCK, ['ViewConfig'])).toBe(true);
  });
  it('a stock role on one stock does not apply to another', () => {
    const u = user([], { [STOCK]: ['ViewConfig'] });
    expect(hasStockRole(u, STOCK, ['ViewConfig'])).toBe(true);
    expect(hasStockRole(u, OTHER, ['ViewConfig'])).toBe(false);
    expect(hasStockRole(u, STOCK, ['ReplyToComment'])).toBe(false);
  });
});
