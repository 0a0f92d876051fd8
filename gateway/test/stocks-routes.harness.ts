import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  formatIsoDate,
  SESSION_COOKIE,
  Stock,
  StockRole,
  Topics,
} from '@irp/proto';
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
 * What the stocks routes' contract tests share (docs/api/stocks.md): the gateway in front of the real users
 * and stocks services on the real broker and database, each service a process of its own reached through
 * Kafka and HTTP only. Stocks are created through the API with tickers unique to this run; per-stock roles
 * are given to test users of our own through the users service's seed. A spec file calls
 * `useStocksGateway()` inside its describe; the bindings below are set by its beforeAll.
 */

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
export const RUN = Date.now().toString(36).slice(-6).toUpperCase();
export const T = (prefix: string) => `${prefix}${RUN}`;
export const PASSWORD = 'StocksTest!2026';
export const RATE_LIMIT = 6;
/** The stocks service's "this year" is Sydney's (stock-rules sydneyYear). */
export const sydneyYear = () => Number(formatIsoDate(new Date()).slice(0, 4));

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

export interface Session {
  username: string;
  cookie: string;
  csrf: string;
}

export const SUMMARY_KEYS = [
  'archived',
  'combinedTicker',
  'companyName',
  'created',
  'exchange',
  'id',
  'ticker',
  'websiteUrl',
].sort();

export let users: ServiceProcess;
export let stocks: ServiceProcess;
export let gateway: INestApplication;
/** Another gateway's way to the stocks service (it changes a ticker this gateway is not told of). */
export let otherGateway: KafkaRequester;
export let http: ReturnType<typeof request>;
export const sessions: Record<string, Session> = {};

/** Stocks of this run, by role in the tests. */
export let A: Stock; // tclient: ViewConfig, ReplyToComment, EditAnnouncements; tviewer: EditAnnouncements
export let B: Stock; // tclient: ViewConfig only
export let C: Stock; // nobody's (the "other client's stock")
export let D: Stock; // tclient: ViewConfig, archived

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

export const get = (path: string, who?: string) => {
  const r = http.get(path);
  return who ? r.set('Cookie', sessions[who].cookie) : r;
};
export const post = (path: string, body: object, who?: string) => {
  const r = http.post(path);
  return (who ? r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf) : r).send(body);
};

export async function createStock(fields: Record<string, unknown>): Promise<Stock> {
  const res = await post('/api/admin/stocks', fields, 'admin');
  expect(res.body).toMatchObject({ success: true, errorMessage: null });
  expect(res.status).toBe(200);
  return res.body.stock as Stock;
}

export async function newApiKey(): Promise<string> {
  const res = await get('/api/admin/apiKey', 'admin');
  expect(res.status).toBe(200);
  return res.body.apiKey as string;
}

/** Starts the services and the gateway, signs in and makes the stocks of this run; undoes it after. */
export function useStocksGateway(): void {
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
}
