import { Controller, Get, INestApplication, Post } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  CSRF_HEADER,
  GlobalRole,
  hasGlobalRole,
  hasStockRole,
  SESSION_COOKIE,
  SessionUser,
  StockRole,
} from '@irp/proto';
import cookieParser from 'cookie-parser';
import request from 'supertest';
import { HttpErrorFilter } from '../common/http-exception.filter';
import { GATEWAY_CONFIG, loadGatewayConfig } from '../config';
import { AuthGuard } from './auth.guard';
import { csrfTokenFor } from './csrf';
import { Public, Roles, StockRoles } from './decorators';
import { SessionService } from './session.service';
import { STOCK_DIRECTORY } from './stock-directory';

const STOCK = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';
const user = (roles: string[], stockRoles: Record<string, string[]> = {}): SessionUser => ({
  id: '00000000-0000-4000-8000-000000000099',
  username: 'u',
  roles,
  stockRoles,
});

@Controller('t')
class ProbeController {
  @Get('public') @Public() open() {
    return { ok: 1 };
  }
  @Get('signed-in') signedIn() {
    return { ok: 1 };
  }
  @Post('signed-in') change() {
    return { ok: 1 };
  }
  @Get('admin') @Roles(GlobalRole.Admin) admin() {
    return { ok: 1 };
  }
  @Get('users') @Roles(GlobalRole.EditUsers) editUsers() {
    return { ok: 1 };
  }
  @Get('stock/:combinedTicker') @StockRoles([StockRole.ViewConfig]) stock() {
    return { ok: 1 };
  }
  @Get('stock-q') @StockRoles([StockRole.ReplyToComment], 'query') stockQuery() {
    return { ok: 1 };
  }
}

describe('AuthGuard', () => {
  let app: INestApplication;
  const sessions: Record<string, SessionUser> = {
    admin: user([GlobalRole.Admin]),
    editor: user([GlobalRole.EditUsers]),
    client: user([], { [STOCK]: [StockRole.ViewConfig], [OTHER]: [StockRole.ReplyToComment] }),
    nobody: user([]),
  };
  const config = loadGatewayConfig({ KAFKA_BROKERS: '127.0.0.1:1' });

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
        {
          provide: STOCK_DIRECTORY,
          useValue: { stockIdOf: async (t: string) => ({ 'ABC:ASX': STOCK, 'XYZ:ASX': OTHER })[t] ?? null },
        },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    }).compile();
    app = moduleRef.createNestApplication();
    app.use(cookieParser());
    await app.init();
  });
  afterAll(() => app.close());

  const as = (who: string) => `${SESSION_COOKIE}=${who}`;
  const get = (path: string, who?: string) => {
    const r = request(app.getHttpServer()).get(path);
    return who ? r.set('Cookie', as(who)) : r;
  };

  it('lets anyone reach a public route', async () => expect((await get('/t/public')).status).toBe(200));
  it('answers 401 to a signed-out request', async () => {
    const res = await get('/t/signed-in');
    expect(res.status).toBe(401);
    expect(res.body.errorMessage).toBe('Not signed in');
  });
  it('lets a signed-in user through', async () =>
    expect((await get('/t/signed-in', 'nobody')).status).toBe(200));
  it('answers 403 without the global role', async () => {
    const res = await get('/t/admin', 'editor');
    expect(res.status).toBe(403);
    expect(res.body.errorMessage).toBe('This needs the Admin role');
  });
  it('lets the role holder and Admin through a role rule', async () => {
    expect((await get('/t/users', 'editor')).status).toBe(200);
    expect((await get('/t/users', 'admin')).status).toBe(200);
    expect((await get('/t/users', 'client')).status).toBe(403);
  });
  it('checks the per-stock role by combinedTicker', async () => {
    expect((await get('/t/stock/ABC:ASX', 'client')).status).toBe(200);
    const other = await get('/t/stock/XYZ:ASX', 'client');
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe('You do not have the ViewConfig permission on XYZ:ASX');
    expect((await get('/t/stock/XYZ:ASX', 'admin')).status).toBe(200);
    expect((await get('/t/stock/NOPE:ASX', 'client')).status).toBe(404);
  });
  it('reads combinedTicker from the query when told to, and needs it', async () => {
    expect((await get('/t/stock-q?combinedTicker=XYZ:ASX', 'client')).status).toBe(200);
    expect((await get('/t/stock-q?combinedTicker=ABC:ASX', 'client')).status).toBe(403);
    expect((await get('/t/stock-q', 'client')).status).toBe(400);
  });
  it('refuses a state-changing request of a session without the CSRF token', async () => {
    const post = () => request(app.getHttpServer()).post('/t/signed-in').set('Cookie', as('nobody'));
    expect((await post()).status).toBe(403);
    expect((await post().set(CSRF_HEADER, csrfTokenFor(config.SESSION_SECRET, 'other'))).status).toBe(403);
    expect((await post().set(CSRF_HEADER, csrfTokenFor(config.SESSION_SECRET, 'nobody'))).status).toBe(201);
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
