import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  GlobalRole,
  pingTopicOf,
  SESSION_COOKIE,
  Stock,
  StockRole,
} from '@irp/proto';
import { INestApplication } from '@nestjs/common';
import {
  createTestRequester,
  dropSchema,
  loadTestEnv,
  runServiceSeed,
  ServiceProcess,
  SmtpSink,
  StandInProcess,
  startServiceProcess,
  startSmtpSink,
  patientDeadline,
  startStandInProcess,
  testDatabaseUrl,
  waitedFor,
} from '@irp/platform/testing';
import { Client } from 'pg';
import request from 'supertest';
import { createGateway } from '../src/main';

/** What the gateway contract tests share: sign-ins, session-bound requests, test users, polling. */

export const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

export interface Session {
  cookie: string;
  csrf: string;
}

/** The cookies an answer set (Set-Cookie), by name, their values decoded. */
export function cookiesSetBy(res: request.Response): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const c of (res.headers['set-cookie'] as unknown as string[]) ?? []) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar[pair.slice(0, i)] = decodeURIComponent(pair.slice(i + 1));
  }
  return jar;
}

/** The session a sign-in or refresh answer set: its session and CSRF cookies to send back. */
export function sessionSetBy(res: request.Response): Session {
  const jar = cookiesSetBy(res);
  return {
    cookie: `${SESSION_COOKIE}=${jar[SESSION_COOKIE]}; ${CSRF_COOKIE}=${jar[CSRF_COOKIE]}`,
    csrf: jar[CSRF_COOKIE],
  };
}

/** Signs in through GET /api/login; the session and CSRF cookies to send back. */
export async function signIn(
  http: ReturnType<typeof request>,
  username: string,
  password: string,
): Promise<Session> {
  const res = await http.get('/api/login').set('Authorization', basic(username, password));
  if (res.status !== 200)
    throw new Error(`sign-in of ${username} answered ${res.status} ${JSON.stringify(res.body)}`);
  return sessionSetBy(res);
}

/** GET and POST as a signed-in user (by name in `sessions`), or signed out when `who` is undefined. */
export function clientOf(http: ReturnType<typeof request>, sessions: Record<string, Session>) {
  return {
    get: (path: string, who?: string) => {
      const r = http.get(path);
      return who ? r.set('Cookie', sessions[who].cookie) : r;
    },
    post: (path: string, body: object | string, who?: string) => {
      const r = http.post(path);
      return (who ? r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf) : r).send(
        body,
      );
    },
  };
}

/**
 * Creates or updates users of a test through the users service's seed and its fixture file; `roles` are
 * their global roles (none unless given).
 */
export async function seedTestUsers(
  password: string,
  users: Array<{ username: string; roles?: GlobalRole[]; stockRoles: Record<string, StockRole[]> }>,
) {
  const file = join(mkdtempSync(join(tmpdir(), 'irp-gateway-users-')), 'users.json');
  writeFileSync(file, JSON.stringify(users.map((u) => ({ roles: [], ...u, password }))));
  await runServiceSeed('users', [`--fixture=${file}`]);
}

/** Reads until `done` holds, or fails with the last value at the later of `ms` and the test's own limit. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  ms = 20_000,
) {
  const started = Date.now();
  const deadline = patientDeadline(ms);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not ${waitedFor(started)}; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Where the email-marketing service's links point in the gateway specs (confirmation, unsubscribe, responses). */
export const PUBLIC_BASE_URL = 'http://portal.example';

let runIds = 0;

/**
 * Characters unique to this run and to the module asking, for tickers, addresses and names (the modules of
 * one spec file are imported within the same millisecond, so the clock alone would give them the same).
 */
export function runId(length = 6): string {
  runIds += 1;
  return (Date.now() + runIds * 7919).toString(36).slice(-length).toUpperCase();
}

/**
 * The backend that one spec file starts once for the groups of cases it registers (backend.int-spec.ts):
 * `backend()`, called in a group's beforeAll, gives it with the SMTP sink emptied of the groups before.
 */
export interface SharedBackend {
  backend(): MailBackend;
}

/** The four services behind the email and comment routes, each its own process, and the SMTP sink. */
export interface MailBackend {
  sink: SmtpSink;
  users: ServiceProcess;
  stocks: ServiceProcess;
  announcements: ServiceProcess;
  email: ServiceProcess;
  /** Invoicing, reading the accounting stand-in's demo organisation (the dashboards' invoice columns). */
  invoicing: ServiceProcess;
  accounting: StandInProcess;
  /** Reports, against the market-data stand-in, its jobs only on demand (the sync routes). */
  reports: ServiceProcess;
  market: StandInProcess;
  /** The email-marketing providers' stand-in (its own process, mailing to the sink), when asked for. */
  providers?: StandInProcess;
  /** Stops every process and the sink, and drops the schemas the backend wrote. */
  stop(): Promise<void>;
}

const MAIL_BACKEND_SCHEMAS = ['stocks', 'announcements', 'email_marketing', 'invoicing', 'reports'] as const;

/**
 * Users and stocks (seeded with the demo data), announcements (no polling: its feed URLs are empty, unless
 * `announcementsEnv` points them somewhere) and email-marketing (mailing to an in-process SMTP sink, links
 * on `publicBaseUrl`, settings of its own in `emailEnv`), on fresh schemas. With `providers`, the
 * email-marketing providers' stand-in runs too (the demo lists; campaigns mailed to the sink) and the
 * service's provider URLs point at it. Invoicing runs against the accounting stand-in (its own process,
 * the demo organisation), so the dashboards compose every column. Reports runs against the market-data
 * stand-in (its own process) without scheduled jobs or history: a spec loads the days it needs.
 */
export async function startMailBackend(
  publicBaseUrl: string,
  options: { announcementsEnv?: NodeJS.ProcessEnv; emailEnv?: NodeJS.ProcessEnv; providers?: boolean } = {},
): Promise<MailBackend> {
  await Promise.all(MAIL_BACKEND_SCHEMAS.map((s) => dropSchema(s)));
  const sink = await startSmtpSink();
  const providers = options.providers
    ? await startStandInProcess('email-marketing', 'email-providers', { SMTP_URL: sink.url })
    : undefined;
  const [accounting, market] = await Promise.all([
    startStandInProcess('invoicing', 'accounting-standin'),
    startStandInProcess('reports', 'market-standin'),
  ]);
  const [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
  await Promise.all([runServiceSeed('users'), runServiceSeed('stocks')]);
  const [announcements, email, invoicing, reports] = await Promise.all([
    startServiceProcess('announcements', {
      env: { POLL_INTERVAL_MS: '3600000', ASX_BASE_URL: '', ASX2_BASE_URL: '', ...options.announcementsEnv },
    }),
    startServiceProcess('email-marketing', {
      env: {
        SMTP_URL: sink.url,
        PUBLIC_BASE_URL: publicBaseUrl,
        SWEEP_INTERVAL_MS: '500',
        ...(providers
          ? {
              MAILCHIMP_BASE_URL: `${providers.url}/3.0`,
              CAMPAIGN_MONITOR_BASE_URL: `${providers.url}/api/v3.3`,
            }
          : {}),
        ...options.emailEnv,
      },
    }),
    startServiceProcess('invoicing', {
      env: {
        ACCOUNTING_BASE_URL: `${accounting.url}/api.xro/2.0`,
        ACCOUNTING_TOKEN_URL: `${accounting.url}/connect/token`,
        ACCOUNTING_APP_URL: accounting.url,
      },
    }),
    startServiceProcess('reports', {
      env: { MARKET_DATA_BASE_URL: market.url, MARKET_JOBS_DISABLED: 'true', MARKET_HISTORY_DAYS: '0' },
    }),
  ]);
  await untilEveryServiceAnswers([
    'users',
    'stocks',
    'announcements',
    'email-marketing',
    'invoicing',
    'reports',
  ]);
  return {
    sink,
    users,
    stocks,
    announcements,
    email,
    invoicing,
    accounting,
    reports,
    market,
    providers,
    async stop() {
      await Promise.all([
        reports.stop(),
        invoicing.stop(),
        email.stop(),
        announcements.stop(),
        stocks.stop(),
        users.stop(),
      ]);
      await Promise.all([providers?.stop(), accounting.stop(), market.stop()]);
      await sink.close();
      await Promise.all(MAIL_BACKEND_SCHEMAS.map((s) => dropSchema(s)));
    },
  };
}

/**
 * Until each service answers its ping over Kafka: a process is up before its consumer group has joined, and
 * on a busy machine a spec's first request could otherwise meet a service not yet listening.
 */
export async function untilEveryServiceAnswers(names: string[], ms = 90_000): Promise<void> {
  const topics = names.map((name) => {
    const topic = pingTopicOf(name);
    if (!topic) throw new Error(`${name} has no ping topic in proto`);
    return topic;
  });
  const requester = await createTestRequester(topics, 5000);
  try {
    const started = Date.now();
    const deadline = patientDeadline(ms);
    for (const topic of topics)
      for (;;) {
        try {
          await requester.request(topic, {});
          break;
        } catch (err) {
          if (Date.now() > deadline)
            throw new Error(`${topic} not answered ${waitedFor(started)}: ${String(err)}`);
        }
      }
  } finally {
    await requester.close();
  }
}

/** A stock created by an admin through POST /api/admin/stocks (`post` signed in as 'admin'). */
export async function createStockAsAdmin(
  post: ReturnType<typeof clientOf>['post'],
  fields: Record<string, unknown>,
): Promise<Stock> {
  const res = await post('/api/admin/stocks', fields, 'admin');
  if (res.body?.success !== true)
    throw new Error(`creating ${String(fields.ticker)} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.stock as Stock;
}

/**
 * A stock made by the admin with a new product API key, and its email-marketing settings saved with
 * `providerKey` on the demo Mailchimp-type list (retried until the email-marketing service knows the stock).
 */
export async function createStockWithProviderKey(
  { get, post }: ReturnType<typeof clientOf>,
  fields: { ticker: string; companyName: string },
  providerKey: string,
): Promise<Stock> {
  const apiKey = (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;
  const stock = await createStockAsAdmin(post, { ...fields, apiKey });
  await until(
    () =>
      post(
        '/api/emailMarketingSettings/',
        { StockId: stock.id, Settings: { provider: 'mailchimp', listId: 'demo-list', apiKey: providerKey } },
        'admin',
      ),
    (r) => r.status === 200,
    'email-marketing knowing the stock',
  );
  return stock;
}

/** The gateway in this process on a free port, with the settings the contract tests share, and its client. */
export async function startTestGateway(
  env: NodeJS.ProcessEnv = {},
): Promise<{ gateway: INestApplication; http: ReturnType<typeof request> }> {
  const gateway = await createGateway({
    ...process.env,
    // The gateway's own role (docs/adr/0011), as deployed.
    DATABASE_URL: testDatabaseUrl('gateway'),
    PORT: '0',
    // A service of a loaded machine answers late: late is not a 503 here (a test of the 503 waits this out).
    KAFKA_REQUEST_TIMEOUT_MS: '20000',
    HEALTH_DOWN_TIMEOUT_MS: '20000',
    LOGIN_THROTTLE_LIMIT: '50',
    // Every test signs in (and posts widget comments) from 127.0.0.1, and the counts outlive one test file
    // (they are the database's): a test of a limit sets its own.
    LOGIN_THROTTLE_ADDRESS_LIMIT: '1000',
    COMMENT_RATE_PER_ADDRESS: '1000',
    ORDER_RATE_PER_ADDRESS: '1000',
    // Orders are sent as soon as their form token is fetched: the token is still required, and a test of
    // the minimum fill time sets its own.
    ORDER_FORM_MIN_FILL_MS: '0',
    ADDRESS_LOOKUPS_PER_MINUTE: '1000',
    ADDRESS_LOOKUPS_PER_SESSION: '10000',
    ADDRESS_LOOKUP_BUDGET_PER_MINUTE: '1000000',
    ADDRESS_LOOKUP_BUDGET_PER_DAY: '10000000',
    REPORT_SEARCH_RATE_PER_ADDRESS: '1000',
    REPORT_SEARCH_RATE_PER_REPORT: '1000',
    PUBLIC_PDF_RATE_PER_ADDRESS: '100000',
    WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS: '1000',
    // A busy machine answers in seconds what takes milliseconds alone: the pages' contributors get time
    // (a test of the fallback sets its own short one).
    STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: '20000',
    DASHBOARD_CONTRIBUTOR_TIMEOUT_MS: '20000',
    SESSION_CACHE_MS: '0',
    ...env,
  });
  return { gateway, http: request(gateway.getHttpServer()) };
}

/** A connection to the test database, for reading the durable state a test's proof rests on. */
export async function connectTestDatabase(): Promise<Client> {
  const db = new Client({ connectionString: loadTestEnv().DATABASE_URL });
  await db.connect();
  return db;
}

/**
 * Waits until the email-marketing service has projected `address` as the system settings' error email
 * (`system-settings.saved`, docs/adr/0013), so a staff mail asked after a settings save goes to it: the
 * projection follows the save by an event, and a test waits on that event, never a fixed time.
 */
export async function untilErrorEmailProjected(address: string): Promise<void> {
  const db = await connectTestDatabase();
  try {
    await until(
      async () =>
        (
          await db.query<{ errorEmail: string }>(
            `SELECT error_email AS "errorEmail" FROM email_marketing.staff_mail_settings`,
          )
        ).rows[0]?.errorEmail ?? null,
      (errorEmail) => errorEmail === address,
      `the email-marketing service's error email ${address}`,
      60_000,
    );
  } finally {
    await db.end();
  }
}
