import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import {
  AdminStockPageSchema,
  CSRF_COOKIE,
  CSRF_HEADER,
  DEMO_STOCK_IDS,
  EXCHANGE_DIRECTORY,
  formatIsoDate,
  SESSION_COOKIE,
  Stock,
  STOCK_ROLES,
  StockRole,
  StockSchema,
  Topics,
  WidgetStockSchema,
} from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  runServiceSeed,
  ServiceProcess,
  startServiceProcess,
} from '@irp/platform/testing';
import request from 'supertest';
import { createGateway } from '../src/main';

/**
 * Contract tests of the stocks routes (docs/api/stocks.md): the gateway in front of the real users and
 * stocks services on the real broker and database. Every route: signed out 401, wrong role 403, bad
 * input 400, and its happy path and shape. Stocks are created through the API with tickers unique to
 * this run; per-stock roles are given to test users of our own through the users service's seed. The
 * services run as processes of their own: this test reaches them through Kafka and HTTP only.
 */

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const RUN = Date.now().toString(36).slice(-6).toUpperCase();
const T = (prefix: string) => `${prefix}${RUN}`;
const PASSWORD = 'StocksTest!2026';
const RATE_LIMIT = 6;
/** The stocks service's "this year" is Sydney's (stock-rules sydneyYear). */
const sydneyYear = () => Number(formatIsoDate(new Date()).slice(0, 4));

interface TestUser {
  username: string;
  stockRoles: Record<string, StockRole[]>;
}

/** Creates or updates users of this test through the users service's seed and its fixture file. */
async function seedTestUsers(users: readonly TestUser[]): Promise<void> {
  const file = join(mkdtempSync(join(tmpdir(), 'irp-gateway-users-')), 'users.json');
  writeFileSync(file, JSON.stringify(users.map((u) => ({ ...u, password: PASSWORD, roles: [] }))));
  await runServiceSeed('users', [`--fixture=${file}`]);
}

interface Session {
  username: string;
  cookie: string;
  csrf: string;
}

const SUMMARY_KEYS = [
  'archived',
  'combinedTicker',
  'companyName',
  'created',
  'exchange',
  'id',
  'ticker',
  'websiteUrl',
].sort();

describe('gateway stocks routes against the real users and stocks services over Kafka', () => {
  let users: ServiceProcess;
  let stocks: ServiceProcess;
  let gateway: INestApplication;
  /** Another gateway's way to the stocks service (it changes a ticker this gateway is not told of). */
  let otherGateway: KafkaRequester;
  let http: ReturnType<typeof request>;
  const sessions: Record<string, Session> = {};

  /** Stocks of this run, by role in the tests. */
  let A: Stock; // tclient: ViewConfig, ReplyToComment, EditAnnouncements; tviewer: EditAnnouncements
  let B: Stock; // tclient: ViewConfig only
  let C: Stock; // nobody's (the "other client's stock")
  let D: Stock; // tclient: ViewConfig, archived

  async function signIn(username: string, password: string): Promise<Session> {
    const res = await http.get('/api/login').set('Authorization', basic(username, password));
    expect(res.status).toBe(200);
    const jar: Record<string, string> = {};
    for (const c of (res.headers['set-cookie'] as unknown as string[]) ?? []) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar[pair.slice(0, i)] = decodeURIComponent(pair.slice(i + 1));
    }
    return {
      username,
      cookie: `${SESSION_COOKIE}=${jar[SESSION_COOKIE]}; ${CSRF_COOKIE}=${jar[CSRF_COOKIE]}`,
      csrf: jar[CSRF_COOKIE],
    };
  }

  const get = (path: string, who?: string) => {
    const r = http.get(path);
    return who ? r.set('Cookie', sessions[who].cookie) : r;
  };
  const post = (path: string, body: object, who?: string) => {
    const r = http.post(path);
    return (who ? r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf) : r).send(body);
  };

  async function createStock(fields: Record<string, unknown>): Promise<Stock> {
    const res = await post('/api/admin/stocks', fields, 'admin');
    expect(res.body).toMatchObject({ success: true, errorMessage: null });
    expect(res.status).toBe(200);
    return res.body.stock as Stock;
  }

  async function newApiKey(): Promise<string> {
    const res = await get('/api/admin/apiKey', 'admin');
    expect(res.status).toBe(200);
    return res.body.apiKey as string;
  }

  beforeAll(async () => {
    // A fresh stocks schema, so the stocks seed can create the demo stocks with their fixed ids (another
    // suite may have left a VOD:LSE of its own, which the idempotent seed would keep).
    await dropSchema('stocks');
    [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
    await Promise.all([runServiceSeed('users'), runServiceSeed('stocks')]);
    otherGateway = await createTestRequester([Topics.StocksChangeTicker], 8000);
    gateway = await createGateway({
      ...process.env,
      PORT: '0',
      KAFKA_REQUEST_TIMEOUT_MS: '5000',
      LOGIN_THROTTLE_LIMIT: '50',
      SESSION_CACHE_MS: '0',
      WIDGET_RATE_LIMIT: String(RATE_LIMIT),
      WIDGET_RATE_WINDOW_MS: '60000',
      // Long enough that a test reading through a stale combinedTicker -> id answer is not racing the TTL.
      STOCK_DIRECTORY_CACHE_MS: '30000',
      // The announcements service is not started here: the admin stock page gives up on it quickly.
      STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: '200',
      // Nor is the email-marketing service: the dashboards' Email marketing column stays null, quickly.
      DASHBOARD_CONTRIBUTOR_TIMEOUT_MS: '300',
    });
    http = request(gateway.getHttpServer());

    sessions.admin = await signIn('admin', 'Admin!2026');
    sessions.reports = await signIn('reports', 'Reports!2026');
    sessions.useradmin = await signIn('useradmin', 'UserAdmin!2026');
    sessions.client = await signIn('client', 'Client!2026');

    A = await createStock({
      ticker: T('a'),
      companyName: 'Alpha Resources',
      websiteUrl: 'alpha.example.com',
      apiKey: await newApiKey(),
      confirmationEmail: 'ir@alpha.example.com',
      accountingReference: 'ACC-ALPHA',
    });
    B = await createStock({ ticker: T('B'), companyName: 'Beta Minerals', apiKey: await newApiKey() });
    C = await createStock({ ticker: T('C'), companyName: 'Gamma Energy', apiKey: await newApiKey() });
    D = await createStock({ ticker: T('D'), companyName: 'Delta Archived', apiKey: await newApiKey() });

    // Per-stock roles for users of our own (the demo client's stocks come from the stocks seed).
    await seedTestUsers([
      {
        username: 'stocks-test-client',
        stockRoles: {
          [A.id]: [StockRole.ViewConfig, StockRole.ReplyToComment, StockRole.EditAnnouncements],
          [B.id]: [StockRole.ViewConfig],
          [D.id]: [StockRole.ViewConfig],
        },
      },
      { username: 'stocks-test-viewer', stockRoles: { [A.id]: [StockRole.EditAnnouncements] } },
    ]);
    sessions.tclient = await signIn('stocks-test-client', PASSWORD);
    sessions.tviewer = await signIn('stocks-test-viewer', PASSWORD);

    const archived = await post(
      '/api/admin/archiveStock',
      { exchange: 'ASX', ticker: D.ticker, archived: true },
      'admin',
    );
    expect(archived.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    await otherGateway?.close();
    await Promise.all([stocks?.stop(), users?.stop()]);
    // Leave no test stocks behind: a stack started on this database next (the browser tests) seeds the
    // demo stocks afresh, with their fixed ids.
    await dropSchema('stocks');
  });

  // -------------------------------------------------------------------------------------------------
  describe('every route: signed out 401, wrong role 403', () => {
    const ticker = () => A.combinedTicker;
    /**
     * What a refused state change could have touched, read back as an admin: A (change ticker, archive),
     * C (client save) and the stock the refused create names.
     */
    const stockState = async () =>
      Promise.all(
        [A.combinedTicker, C.combinedTicker, `${T('X')}:ASX`].map(async (name) => {
          const res = await get(`/api/stock/${name}`, 'admin');
          return { name, status: res.status, stock: res.body as unknown };
        }),
      );
    const routes: Array<{
      name: string;
      call: (who?: string) => request.Test;
      wrong: string[];
      save?: boolean;
    }> = [
      {
        name: 'GET /api/admin/stocks',
        call: (w) => get('/api/admin/stocks', w),
        wrong: ['client', 'useradmin'],
      },
      {
        name: 'POST /api/admin/stocks',
        call: (w) => post('/api/admin/stocks', { ticker: T('X') }, w),
        wrong: ['reports', 'client', 'useradmin'],
        save: true,
      },
      {
        name: 'GET /api/stock/{combinedTicker}',
        call: (w) => get(`/api/stock/${ticker()}`, w),
        wrong: ['client', 'useradmin'],
      },
      {
        name: 'POST /api/admin/changeTicker',
        call: (w) =>
          post('/api/admin/changeTicker', { exchange: 'ASX', ticker: A.ticker, newTicker: T('Z') }, w),
        wrong: ['reports', 'client', 'tclient'],
        save: true,
      },
      {
        name: 'POST /api/admin/archiveStock',
        call: (w) => post('/api/admin/archiveStock', { exchange: 'ASX', ticker: A.ticker }, w),
        wrong: ['reports', 'client', 'tclient'],
        save: true,
      },
      {
        name: 'GET /api/admin/apiKey',
        call: (w) => get('/api/admin/apiKey', w),
        wrong: ['reports', 'client'],
      },
      {
        name: 'GET /api/admin/exchanges/',
        call: (w) => get('/api/admin/exchanges/', w),
        wrong: ['reports', 'client'],
      },
      {
        name: 'GET /api/ClientStock/',
        call: (w) => get(`/api/ClientStock/?combinedTicker=${C.combinedTicker}`, w),
        wrong: ['client', 'tclient', 'reports'],
      },
      {
        name: 'POST /api/ClientStock',
        call: (w) =>
          post('/api/ClientStock', { combinedTicker: C.combinedTicker, companyName: 'Hijacked' }, w),
        wrong: ['client', 'tclient', 'reports'],
        save: true,
      },
      { name: 'GET /api/clientDashboard/', call: (w) => get('/api/clientDashboard/', w), wrong: [] },
      {
        name: 'GET /api/admin/getNotes',
        call: (w) => get(`/api/admin/getNotes?ticker=${ticker()}`, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'POST /api/admin/saveNote',
        call: (w) => post('/api/admin/saveNote', { ticker: ticker(), details: 'x' }, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'GET /api/admin/getStockVersionHistory',
        call: (w) => get(`/api/admin/getStockVersionHistory?ticker=${ticker()}`, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'GET /api/admin/stockReferers',
        call: (w) => get(`/api/admin/stockReferers?ticker=${ticker()}`, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'GET /api/admin/referers',
        call: (w) => get('/api/admin/referers', w),
        wrong: ['reports', 'client'],
      },
    ];

    it.each(routes.map((r) => [r.name, r] as const))('%s: signed out is 401', async (_, route) => {
      const before = route.save ? await stockState() : undefined;
      const res = await route.call();
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'Not signed in',
        errorMessage: 'Not signed in',
      });
      if (route.save) {
        expect(res.body).toMatchObject({ success: false, stock: null });
        expect(await stockState()).toEqual(before);
      }
    });

    it.each(routes.filter((r) => r.wrong.length).map((r) => [r.name, r] as const))(
      '%s: the wrong role is 403',
      async (_, route) => {
        const before = route.save ? await stockState() : undefined;
        for (const who of route.wrong) {
          const res = await route.call(who);
          expect({ who, status: res.status }).toEqual({ who, status: 403 });
          expect(res.body.error).toBe('Forbidden');
          expect(res.body.errorMessage).toMatch(/This needs the Admin|You do not have the/);
          if (route.save) expect(res.body).toMatchObject({ success: false, stock: null });
        }
        // Refused means nothing changed: same stocks, same versions, no stock created.
        if (route.save) {
          const after = await stockState();
          expect(after).toEqual(before);
          expect(after.map((s) => s.status)).toEqual([200, 200, 404]);
        }
      },
    );

    it('names the missing role or permission', async () => {
      expect((await get('/api/admin/apiKey', 'reports')).body.errorMessage).toBe('This needs the Admin role');
      expect((await get('/api/admin/stocks', 'client')).body.errorMessage).toBe(
        'This needs the Admin or RunReports role',
      );
      expect(
        (await get(`/api/ClientStock/?combinedTicker=${C.combinedTicker}`, 'client')).body.errorMessage,
      ).toBe(`You do not have the ${STOCK_ROLES.join(' or ')} permission on ${C.combinedTicker}`);
      expect(
        (await post('/api/ClientStock', { combinedTicker: A.combinedTicker, companyName: 'x' }, 'tviewer'))
          .body.errorMessage,
      ).toBe(`You do not have the ViewConfig permission on ${A.combinedTicker}`);
    });

    it('refuses a state change without the CSRF header', async () => {
      const res = await http
        .post('/api/admin/stocks')
        .set('Cookie', sessions.admin.cookie)
        .send({ ticker: T('Q') });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, stock: null });
      expect(res.body.errorMessage).toMatch(/CSRF/);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/admin/stocks', () => {
    it('gives an admin every stock; a composed column whose service does not answer is null and named', async () => {
      const res = await get('/api/admin/stocks?startDate=2026-01-01&endDate=2026-01-31', 'admin');
      expect(res.status).toBe(200);
      expect(res.body.unavailable).toEqual(['email-marketing']);
      const row = res.body.stocks.find((s: { id: string }) => s.id === A.id);
      expect(row).toEqual({
        id: A.id,
        ticker: A.ticker,
        exchange: 'ASX',
        combinedTicker: `${A.ticker}:ASX`,
        companyName: 'Alpha Resources',
        created: A.created,
        websiteUrl: 'alpha.example.com',
        archived: false,
        apiKey: A.apiKey,
        pollAsx: false,
        subscriptionExpired: false,
        emailMarketing: null,
        invoice: null,
        repeatingInvoice: null,
      });
      expect(res.body.stocks.find((s: { id: string }) => s.id === D.id)?.archived).toBe(true);
    });

    it('gives a report-runner only the summary fields, stripped on the server', async () => {
      const res = await get('/api/admin/stocks', 'reports');
      expect(res.status).toBe(200);
      expect(res.body.unavailable).toEqual([]);
      for (const row of res.body.stocks) expect(Object.keys(row).sort()).toEqual(SUMMARY_KEYS);
      expect(res.text).not.toContain(A.apiKey!);
      expect(res.text).not.toContain('ACC-ALPHA');
    });

    it('refuses a date that is not ISO, or a start after the end, with 400', async () => {
      const bad = await get('/api/admin/stocks?startDate=01/02/2026', 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('startDate: must be an ISO date like 2026-01-31');
      const reversed = await get('/api/admin/stocks?startDate=2026-02-01&endDate=2026-01-01', 'admin');
      expect(reversed.status).toBe(400);
      expect(reversed.body.errorMessage).toBe('startDate: must not be after endDate (2026-01-01)');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/stocks', () => {
    it('creates a stock with the defaults and answers { success, stock, errorMessage }', async () => {
      const yearBefore = sydneyYear();
      const res = await post(
        '/api/admin/stocks',
        { ticker: ` ${T('e').toLowerCase()} `, companyName: 'Epsilon' },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, stock: expect.any(Object), errorMessage: null });
      const stock = StockSchema.parse(res.body.stock);
      expect(stock).toMatchObject({
        ticker: T('E'),
        exchange: 'ASX',
        combinedTicker: `${T('E')}:ASX`,
        companyName: 'Epsilon',
        archived: false,
        pollAsx: false,
        apiKey: null,
        version: 1,
      });
      // Sydney's year when the service created it: read on both sides, so New Year's Eve cannot flake it.
      expect([yearBefore, sydneyYear()]).toContain(stock.announcementStartYear);
    });

    it('updates by id, dropping read-only fields the web app sends back', async () => {
      const res = await post(
        '/api/admin/stocks',
        { ...B, companyName: 'Beta Minerals Ltd', created: '1999-01-01T00:00:00.000Z', version: 99 },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body.stock).toMatchObject({
        id: B.id,
        companyName: 'Beta Minerals Ltd',
        created: B.created,
      });
      expect(res.body.stock.version).toBe(B.version + 1);
    });

    it('answers errors with success: false, stock: null and the error body', async () => {
      const invalid = await post('/api/admin/stocks', { ticker: 'ab' }, 'admin');
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({
        success: false,
        stock: null,
        statusCode: 400,
        error: 'Bad Request',
        message: 'Please define a valid ticker',
        errorMessage: 'Please define a valid ticker',
      });
      const shape = await post('/api/admin/stocks', { ticker: T('F'), pollAsx: 'yes' }, 'admin');
      expect(shape.status).toBe(400);
      expect(shape.body).toMatchObject({ success: false, stock: null });
      expect(shape.body.errorMessage).toBe('pollAsx: Expected boolean, received string');
      const duplicate = await post('/api/admin/stocks', { ticker: A.ticker }, 'admin');
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: `A stock with ticker ${A.ticker} already exists on ASX`,
      });
      const badId = await post('/api/admin/stocks', { id: 'nope', ticker: T('G') }, 'admin');
      expect(badId.status).toBe(400);
      expect(badId.body.errorMessage).toBe('id: Invalid uuid');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/stock/{combinedTicker}', () => {
    it('gives an admin the whole stock (a bare ticker means ASX)', async () => {
      const res = await get(`/api/stock/${A.ticker}`, 'admin');
      expect(res.status).toBe(200);
      expect(AdminStockPageSchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toMatchObject({ id: A.id, accountingReference: 'ACC-ALPHA', apiKey: A.apiKey });
      // This file does not start the announcements service: the page answers without that part
      // (gateway/test/announcements.int-spec.ts covers the composed page).
      expect(res.body).toMatchObject({
        announcements: null,
        initialPoll: null,
        unavailable: ['announcements'],
      });
    });

    it('gives a report-runner the summary fields plus completedInitialPoll', async () => {
      const res = await get(`/api/stock/${A.combinedTicker}`, 'reports');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...SUMMARY_KEYS, 'completedInitialPoll'].sort());
      expect(res.body.completedInitialPoll).toBe(true);
    });

    it('answers 404 for an unknown stock and 400 for a too-long name', async () => {
      const missing = await get('/api/stock/NOSUCH9:ASX', 'admin');
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
      const long = await get(`/api/stock/${'A'.repeat(41)}`, 'admin');
      expect(long.status).toBe(400);
      expect(long.body.errorMessage).toBe('combinedTicker must be at most 40 characters');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/changeTicker', () => {
    it('changes the ticker; the old combinedTicker is gone at once, even for a cached client check', async () => {
      const stock = await createStock({ ticker: T('H'), companyName: 'Eta' });
      await seedTestUsers([
        { username: 'stocks-test-renamed', stockRoles: { [stock.id]: [StockRole.ViewConfig] } },
      ]);
      sessions.renamed = await signIn('stocks-test-renamed', PASSWORD);
      // Warms the gateway's combinedTicker -> id cache.
      expect((await get(`/api/ClientStock/?combinedTicker=${stock.combinedTicker}`, 'renamed')).status).toBe(
        200,
      );

      const res = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: stock.ticker, newTicker: T('i') },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, errorMessage: null });
      expect(res.body.stock).toMatchObject({ id: stock.id, ticker: T('I'), combinedTicker: `${T('I')}:ASX` });

      const old = await get(`/api/ClientStock/?combinedTicker=${stock.combinedTicker}`, 'renamed');
      expect(old.status).toBe(404);
      expect(old.body.errorMessage).toBe(`Stock ${stock.combinedTicker} not found`);
      const renamed = await get(`/api/ClientStock/?combinedTicker=${T('I')}:ASX`, 'renamed');
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).toBe(stock.id);
    });

    it('refuses bad input with success: false, stock: null', async () => {
      const missing = await post('/api/admin/changeTicker', { exchange: 'ASX', ticker: A.ticker }, 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'newTicker: Required',
      });
      const same = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: A.ticker, newTicker: A.ticker },
        'admin',
      );
      expect(same.status).toBe(400);
      expect(same.body.errorMessage).toBe('The new ticker is the same as the current one');
      const invalid = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: A.ticker, newTicker: 'x!' },
        'admin',
      );
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Please define a valid ticker',
      });
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/archiveStock', () => {
    it('toggles without archived, and sets it when given', async () => {
      const stock = await createStock({ ticker: T('J') });
      const on = await post('/api/admin/archiveStock', { exchange: 'ASX', ticker: stock.ticker }, 'admin');
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: { id: stock.id, archived: true },
      });
      const off = await post('/api/admin/archiveStock', { exchange: 'ASX', ticker: stock.ticker }, 'admin');
      expect(off.body.stock.archived).toBe(false);
      const set = await post(
        '/api/admin/archiveStock',
        { exchange: 'ASX', ticker: stock.ticker, archived: false },
        'admin',
      );
      expect(set.body.stock.archived).toBe(false);
    });

    it('refuses bad input and unknown stocks with success: false, stock: null', async () => {
      const bad = await post('/api/admin/archiveStock', { ticker: A.ticker, archived: 'yes' }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, stock: null });
      expect(bad.body.errorMessage).toBe('exchange: Required; archived: must be true or false');
      const missing = await post('/api/admin/archiveStock', { exchange: 'ASX', ticker: 'NOSUCH9' }, 'admin');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Stock NOSUCH9:ASX not found',
      });
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/admin/apiKey and /api/admin/exchanges/', () => {
    it('hands out a new key each time', async () => {
      const [a, b] = [await newApiKey(), await newApiKey()];
      expect(a).toEqual(expect.any(String));
      expect(a.length).toBeGreaterThanOrEqual(16);
      expect(a).not.toBe(b);
    });

    it('lists the exchanges (with and without the trailing slash)', async () => {
      for (const path of ['/api/admin/exchanges/', '/api/admin/exchanges']) {
        const res = await get(path, 'admin');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(EXCHANGE_DIRECTORY);
      }
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/ClientStock/', () => {
    it('gives a role holder the client form with their roles and null composed fields', async () => {
      const res = await get(`/api/ClientStock/?combinedTicker=${A.combinedTicker}`, 'tclient');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: A.id,
        combinedTicker: A.combinedTicker,
        companyName: 'Alpha Resources',
        apiKey: A.apiKey,
        confirmationEmail: 'ir@alpha.example.com',
        completedInitialPoll: true,
        emailMarketing: null,
      });
      expect(res.body.roles.sort()).toEqual(
        [StockRole.EditAnnouncements, StockRole.ReplyToComment, StockRole.ViewConfig].sort(),
      );
      expect(res.body).not.toHaveProperty('accountingReference');
      // No Invoicing on A: the invoice columns are not sent at all (least privilege, the route's entry).
      for (const field of ['invoiceId', 'invoiceTotal', 'invoiceStatus', 'invoiceDate', 'invoiceNumber'])
        expect(res.body).not.toHaveProperty(field);
    });

    it('lets any role on the stock read it, showing only what that role allows; an admin gets every role and field', async () => {
      const viewer = await get(`/api/ClientStock?combinedTicker=${A.combinedTicker}`, 'tviewer');
      expect(viewer.status).toBe(200);
      expect(viewer.body.roles).toEqual([StockRole.EditAnnouncements]);
      expect(viewer.body).toMatchObject({ id: A.id, companyName: 'Alpha Resources' });
      // EditAnnouncements alone: no configuration (ViewConfig), moderator (ReplyToComment) or invoice fields.
      for (const field of [
        'apiKey',
        'confirmationEmail',
        'contactEmail',
        'autoSendFilter',
        'moderatorEmail',
        'invoiceId',
      ])
        expect(viewer.body).not.toHaveProperty(field);
      const admin = await get(`/api/ClientStock/?combinedTicker=${C.combinedTicker}`, 'admin');
      expect(admin.status).toBe(200);
      expect(admin.body.roles).toEqual([...STOCK_ROLES]);
      expect(admin.body).toMatchObject({
        apiKey: C.apiKey,
        invoiceId: null,
        moderatorEmail: expect.anything(),
      });
    });

    it('refuses a missing combinedTicker with 400 and an unknown stock with 404', async () => {
      const missing = await get('/api/ClientStock/', 'tclient');
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toBe('combinedTicker is required');
      const adminMissing = await get('/api/ClientStock/', 'admin');
      expect(adminMissing.status).toBe(400);
      expect(adminMissing.body.errorMessage).toBe('combinedTicker: Required');
      const unknown = await get('/api/ClientStock/?combinedTicker=NOSUCH9:ASX', 'tclient');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
      // 37 characters are 41 with :ASX: longer than any stock's name, so not found (not a 400 that
      // names the service's topic).
      const long = 'L'.repeat(37);
      const tooLong = await get(`/api/ClientStock/?combinedTicker=${long}`, 'tclient');
      expect(tooLong.status).toBe(404);
      expect(tooLong.body.errorMessage).toBe(`Stock ${long} not found`);
    });

    it('refuses 403 when a stale combinedTicker answer would show another stock (ticker changed elsewhere)', async () => {
      const mine = await createStock({ ticker: T('M'), companyName: 'Mine' });
      await seedTestUsers([
        { username: 'stocks-test-stale', stockRoles: { [mine.id]: [StockRole.ViewConfig] } },
      ]);
      sessions.stale = await signIn('stocks-test-stale', PASSWORD);
      // Warms this gateway's combinedTicker -> id cache with T('M') -> mine.
      const warm = await get(`/api/ClientStock/?combinedTicker=${mine.combinedTicker}`, 'stale');
      expect(warm.status).toBe(200);

      // Another gateway instance renames it (this one's cache is not told), and a new stock, nobody's,
      // takes the old name.
      await otherGateway.request(Topics.StocksChangeTicker, {
        actor: actor({ id: '11111111-1111-4111-8111-111111111111', username: 'admin', roles: ['Admin'] }),
        exchange: 'ASX',
        ticker: mine.ticker,
        newTicker: T('N'),
      });
      const other = await createStock({
        ticker: T('M'),
        companyName: 'Not yours',
        accountingReference: 'SECRET-M',
      });
      expect(other.id).not.toBe(mine.id);

      const res = await get(`/api/ClientStock/?combinedTicker=${mine.combinedTicker}`, 'stale');
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toBe(
        `You do not have the ${STOCK_ROLES.join(' or ')} permission on ${mine.combinedTicker}`,
      );
      expect(res.text).not.toContain('Not yours');
      expect(res.text).not.toContain(other.id);
      // Its own stock under the new name is still readable.
      const renamed = await get(`/api/ClientStock/?combinedTicker=${T('N')}:ASX`, 'stale');
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).toBe(mine.id);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/ClientStock', () => {
    it('saves the client subset and answers the client form', async () => {
      const res = await post(
        '/api/ClientStock',
        {
          combinedTicker: A.combinedTicker,
          companyName: 'Alpha Resources Ltd',
          confirmationEmail: 'ir@alpha.example.com; cfo@alpha.example.com',
          sendPriceSensitiveAnnouncements: true,
          moderatorEmail: 'mod@alpha.example.com',
        },
        'tclient',
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: {
          id: A.id,
          companyName: 'Alpha Resources Ltd',
          confirmationEmail: 'ir@alpha.example.com; cfo@alpha.example.com',
          sendPriceSensitiveAnnouncements: true,
          moderatorEmail: 'mod@alpha.example.com',
          emailMarketing: null,
        },
      });
      expect(res.body.stock.roles).toContain(StockRole.ReplyToComment);
      const history = await get(`/api/admin/getStockVersionHistory?ticker=${A.combinedTicker}`, 'admin');
      expect(history.body[0].changedBy).toBe('stocks-test-client');
    });

    it('refuses any field outside the client subset with 400 naming it', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: A.combinedTicker, companyName: 'x', apiKey: 'stolen', pollAsx: true },
        'tclient',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Not allowed in a client save: apiKey, pollAsx',
      });
    });

    it('refuses an invalid email with the service rule', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: A.combinedTicker, contactEmail: 'not-an-email' },
        'tclient',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, stock: null });
      expect(res.body.errorMessage).toMatch(/^Invalid email address in .*: not-an-email$/);
    });

    it('needs ReplyToComment for moderator emails, logo and comment template (403)', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: B.combinedTicker, companyLogoUrl: 'https://beta.example.com/logo.png' },
        'tclient',
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: `You need the ReplyToComment permission on ${B.combinedTicker} to change moderator emails, the company logo or the comment template`,
      });
      const ok = await post(
        '/api/ClientStock',
        { combinedTicker: B.combinedTicker, websiteUrl: 'beta.example.com' },
        'tclient',
      );
      expect(ok.status).toBe(200);
      expect(ok.body.stock.websiteUrl).toBe('beta.example.com');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/clientDashboard/', () => {
    it("lists the user's stocks from their stockRoles, archived ones left out", async () => {
      const res = await get('/api/clientDashboard/', 'tclient');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['stocks']);
      expect(res.body.stocks.map((s: { id: string }) => s.id).sort()).toEqual([A.id, B.id].sort());
      const a = res.body.stocks.find((s: { id: string }) => s.id === A.id);
      expect(a).toMatchObject({
        combinedTicker: A.combinedTicker,
        apiKey: A.apiKey,
        emailMarketing: null,
      });
      expect(a.roles).toContain(StockRole.ViewConfig);
      // No Invoicing on A: no invoice columns.
      expect(a).not.toHaveProperty('invoiceId');
    });

    it('is empty for a user without stock roles', async () => {
      const res = await get('/api/clientDashboard', 'reports');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ stocks: [] });
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('the demo client on the demo stocks (users and stocks seeds)', () => {
    it('reads BHP:ASX with its roles there', async () => {
      const res = await get('/api/ClientStock/?combinedTicker=BHP:ASX', 'client');
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(DEMO_STOCK_IDS[0]);
      expect(res.body.roles).toEqual(
        expect.arrayContaining([StockRole.ViewConfig, StockRole.ReplyToComment]),
      );
    });

    it('may not change the logo of VOD:LSE, where it holds only ViewConfig (403)', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: 'VOD:LSE', companyLogoUrl: 'https://example.com/other.png' },
        'client',
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage:
          'You need the ReplyToComment permission on VOD:LSE to change moderator emails, the company logo or the comment template',
      });
    });

    it('sees both demo stocks on its dashboard and none of this run', async () => {
      const res = await get('/api/clientDashboard/', 'client');
      expect(res.status).toBe(200);
      const ids = res.body.stocks.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([...DEMO_STOCK_IDS]));
      expect(ids).not.toContain(A.id);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('notes, version history, referers', () => {
    it('saves notes and lists them newest first', async () => {
      const first = await post(
        '/api/admin/saveNote',
        { ticker: C.combinedTicker, details: 'First call' },
        'admin',
      );
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        note: { id: expect.any(String), date: expect.any(String), user: 'admin', details: 'First call' },
      });
      await post('/api/admin/saveNote', { ticker: C.combinedTicker, details: 'Second call' }, 'admin');
      const res = await get(`/api/admin/getNotes?ticker=${C.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      expect(res.body.map((n: { details: string }) => n.details)).toEqual(['Second call', 'First call']);
    });

    it('refuses notes without a ticker or details with 400', async () => {
      const noTicker = await get('/api/admin/getNotes', 'admin');
      expect(noTicker.status).toBe(400);
      expect(noTicker.body.errorMessage).toBe('ticker: Required');
      const noDetails = await post('/api/admin/saveNote', { ticker: C.combinedTicker }, 'admin');
      expect(noDetails.status).toBe(400);
      expect(noDetails.body.errorMessage).toBe('details: Required');
      const unknown = await post('/api/admin/saveNote', { ticker: 'NOSUCH9:ASX', details: 'x' }, 'admin');
      expect(unknown.status).toBe(404);
    });

    it('lists version history newest first, create being version 1', async () => {
      const res = await get(`/api/admin/getStockVersionHistory?ticker=${B.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      const ids = res.body.map((v: { versionId: number }) => v.versionId);
      expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
      expect(ids[ids.length - 1]).toBe(1);
      expect(res.body[ids.length - 1]).toMatchObject({ changedBy: 'admin', changes: expect.any(Array) });
      expect(res.body[ids.length - 1].changes).toEqual(
        expect.arrayContaining([
          { fieldName: 'companyName', originalValue: null, newValue: 'Beta Minerals' },
        ]),
      );
      const missing = await get('/api/admin/getStockVersionHistory', 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toBe('ticker: Required');
    });

    it('refuses the referers of no stock with 400', async () => {
      const res = await get('/api/admin/stockReferers?ticker=', 'admin');
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('ticker: Required');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/widget/stock (public)', () => {
    const widget = (query = '') =>
      http.get(`/api/widget/stock${query}`).set('Origin', 'https://client.example.com');

    it('answers the stock of a key given as ?apiKey or X-Api-Key, with CORS *', async () => {
      const byQuery = await widget(`?apiKey=${A.apiKey}`);
      expect(byQuery.status).toBe(200);
      expect(byQuery.headers['access-control-allow-origin']).toBe('*');
      expect(byQuery.headers['access-control-allow-credentials']).toBeUndefined();
      expect(WidgetStockSchema.strict().parse(byQuery.body)).toEqual({
        ticker: A.ticker,
        exchange: 'ASX',
        combinedTicker: A.combinedTicker,
        isin: '',
        companyName: 'Alpha Resources Ltd',
        websiteUrl: 'alpha.example.com',
        companyLogoUrl: '',
      });
      const byHeader = await widget().set('X-Api-Key', B.apiKey!);
      expect(byHeader.status).toBe(200);
      expect(byHeader.body.combinedTicker).toBe(B.combinedTicker);
    });

    it('answers the preflight: GET with the X-Api-Key header, any origin, no credentials', async () => {
      const res = await http
        .options('/api/widget/stock')
        .set('Origin', 'https://client.example.com')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'x-api-key');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain('GET');
      expect(res.headers['access-control-allow-headers']).toMatch(/X-Api-Key/i);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers 401 without a key or with an unknown one, with CORS *', async () => {
      const none = await widget();
      expect(none.status).toBe(401);
      expect(none.headers['access-control-allow-origin']).toBe('*');
      expect(none.body.errorMessage).toBe('An API key is required: pass apiKey or the X-Api-Key header');
      const unknown = await widget('?apiKey=no-such-key-at-all');
      expect(unknown.status).toBe(401);
      expect(unknown.headers['access-control-allow-origin']).toBe('*');
      expect(unknown.body.errorMessage).toBe('Unknown API key');
      // Keys no stock can have are refused before any counting: no rate headers.
      for (const key of ['k'.repeat(101), 'has%20space', 'dot.key']) {
        const malformed = await widget(`?apiKey=${key}`);
        expect(malformed.status).toBe(401);
        expect(malformed.body.errorMessage).toBe('Unknown API key');
        expect(malformed.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it('answers 404 for an archived stock', async () => {
      const res = await widget(`?apiKey=${D.apiKey}`);
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.errorMessage).toBe('This stock is archived');
    });

    it('records the referer without query or fragment, and counts the hit', async () => {
      const before = await get('/api/admin/referers', 'admin');
      const hitsBefore =
        before.body.find((s: { combinedTicker: string }) => s.combinedTicker === C.combinedTicker)?.hits ?? 0;
      const res = await widget(`?apiKey=${C.apiKey}`).set(
        'Referer',
        'https://investors.gamma.example.com/shares?visitor=42#chart',
      );
      expect(res.status).toBe(200);
      await widget(`?apiKey=${C.apiKey}`).set('Referer', 'javascript:alert(1)');

      const referers = await get(`/api/admin/stockReferers?ticker=${C.combinedTicker}`, 'admin');
      expect(referers.status).toBe(200);
      expect(referers.body).toEqual([
        {
          url: 'https://investors.gamma.example.com/shares',
          count: 1,
          first: expect.any(String),
          last: expect.any(String),
        },
      ]);
      const all = await get('/api/admin/referers', 'admin');
      expect(all.status).toBe(200);
      const gamma = all.body.find((s: { combinedTicker: string }) => s.combinedTicker === C.combinedTicker);
      expect(gamma).toMatchObject({ ticker: C.ticker, exchange: 'ASX', hits: hitsBefore + 2 });
      expect(gamma.referers.map((r: { url: string }) => r.url)).toEqual([
        'https://investors.gamma.example.com/shares',
      ]);
    });

    it(`limits a key to ${RATE_LIMIT} requests a window: 429 with Retry-After, other keys unaffected`, async () => {
      const stock = await createStock({ ticker: T('R'), apiKey: await newApiKey() });
      for (let i = 0; i < RATE_LIMIT; i++) expect((await widget(`?apiKey=${stock.apiKey}`)).status).toBe(200);
      const limited = await widget().set('X-Api-Key', stock.apiKey!);
      expect(limited.status).toBe(429);
      expect(limited.headers['access-control-allow-origin']).toBe('*');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.body.errorMessage).toBe(
        `Too many requests for this API key: at most ${RATE_LIMIT} every 60 seconds. Please retry after ${retryAfter} seconds.`,
      );
      expect((await widget(`?apiKey=${B.apiKey}`)).status).toBe(200);
    });

    it('gives CORS headers on unknown widget paths too', async () => {
      const res = await http.get('/api/widget/nothing-here').set('Origin', 'https://client.example.com');
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });
  });

  it('lists every stocks route in the OpenAPI document', async () => {
    const json = await http.get('/api/docs-json');
    expect(json.status).toBe(200);
    expect(Object.keys(json.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/admin/stocks',
        '/api/stock/{combinedTicker}',
        '/api/admin/changeTicker',
        '/api/admin/archiveStock',
        '/api/admin/apiKey',
        '/api/admin/exchanges',
        '/api/ClientStock',
        '/api/clientDashboard',
        '/api/admin/getNotes',
        '/api/admin/saveNote',
        '/api/admin/getStockVersionHistory',
        '/api/admin/stockReferers',
        '/api/admin/referers',
        '/api/widget/stock',
      ]),
    );
  });
});
