import { CSRF_HEADER, Stock } from '@irp/proto';
import { INestApplication } from '@nestjs/common';
import { PDFDocument } from 'pdf-lib';
import { Client } from 'pg';
import request from 'supertest';
import {
  clientOf,
  connectTestDatabase,
  createStockAsAdmin,
  MailBackend,
  PUBLIC_BASE_URL,
  Session,
  signIn,
  startTestGateway,
  until,
} from './gateway-harness';
import { MatrixContext } from './route-samples';

/**
 * What the route table's specs (the route matrix, the fuzz suite) call routes against: the mail backend
 * (every service behind the gateway, the providers' stand-in, an SMTP sink), the gateway, the admin's
 * session, and the samples' context (route-samples.ts): stocks A and B with API keys, dedicated stocks for
 * a ticker change, an archive and a resync, announcements and comments on A and B.
 */
export interface RouteFixtures {
  /** The backend the fixtures were made on (backend.int-spec.ts's, shared with other groups). */
  backend: MailBackend;
  gateway: INestApplication;
  http: ReturnType<typeof request>;
  db: Client;
  /** Sessions by name: the admin's ('admin'); a spec adds its own. */
  sessions: Record<string, Session>;
  get: ReturnType<typeof clientOf>['get'];
  post: ReturnType<typeof clientOf>['post'];
  ctx: MatrixContext;
  /** A stock with an API key, archived; and one whose subscription expired. */
  archived: Stock;
  expired: Stock;
  stop(): Promise<void>;
}

export async function makePdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

/**
 * Starts a gateway in front of `backend` (the route specs' settings: high rate limits, a 30 s service
 * timeout, `env` on top) and makes the samples' records. `run` makes tickers and addresses unique to the
 * run. `stop()` stops the gateway; the backend is its starter's.
 */
export async function startRouteFixtures(
  backend: MailBackend,
  run: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RouteFixtures> {
  const db = await connectTestDatabase();
  const { gateway, http } = await startTestGateway({
    // 497 calls beside two other lanes on 2 cores: a service's answer may take longer than the harness's
    // 8 s, and a call that ran out is reported as the route answering 503 (likely the 5 problems of one CI
    // run, whose message was cut before the list).
    KAFKA_REQUEST_TIMEOUT_MS: '30000',
    // Likewise /health's ping of each service (1.5 s by default): a fresh three-lane run beside other
    // checkouts' runs (load average 20 on 2 cores) had announcements 'down' for four callers in a row.
    HEALTH_TIMEOUT_MS: '10000',
    LOGIN_THROTTLE_LIMIT: '1000',
    COMMENT_RATE_PER_ADDRESS: '1000',
    COMMENT_RATE_PER_KEY: '1000',
    WIDGET_RATE_LIMIT: '100000',
    ...env,
  });
  const sessions: Record<string, Session> = {};
  const { get, post } = clientOf(http, sessions);
  sessions.admin = await signIn(http, 'admin', 'Admin!2026');

  const adminRead = async (res: request.Response, what: string) => {
    if (res.status < 200 || res.status > 299)
      throw new Error(`${what} as admin answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as unknown;
  };

  const newApiKey = async () => (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;
  const create = async (prefix: string, fields: Record<string, unknown> = {}) =>
    createStockAsAdmin(post, { ticker: `${prefix}${run}`, companyName: `Matrix ${prefix}`, ...fields });
  const withKey = async (prefix: string, fields: Record<string, unknown> = {}) =>
    create(prefix, { apiKey: await newApiKey(), ...fields });
  // Company names of the run: the accounting stand-in, as the accounting system, refuses a second contact of
  // the same name (the route matrix and the fuzz suite each make A's contact on one backend).
  const A = await withKey('MA', {
    companyName: `Alpha Matrix ${run}`,
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: true,
    confirmationEmail: `confirm-${run.toLowerCase()}@alpha.example`,
    contactEmail: 'contact@alpha.example',
    moderatorEmail: 'moderator@alpha.example',
    companyLogoUrl: 'https://alpha.example/logo.png',
    announcementCommentTemplate: 'Dear {name}, thank you.',
    websiteUrl: 'https://alpha.example',
  });
  const B = await withKey('MB', {
    companyName: `Beta Matrix ${run}`,
    moderatorEmail: 'moderator@beta.example',
  });
  const [tickerStock, archiveStock, resyncStock] = [
    await create('MT'),
    await create('MZ'),
    await create('MR'),
  ];
  const archived = await withKey('MW');
  await post(
    '/api/admin/archiveStock',
    { exchange: archived.exchange, ticker: archived.ticker, archived: true },
    'admin',
  );
  const expired = await withKey('MX', { subscriptionExpired: true });

  // The services learn of stocks from stock.upserted: wait until each knows ours.
  for (const stock of [A, B, resyncStock])
    await until(
      () => get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin'),
      (r) => r.status === 200,
      `the announcements service knowing ${stock.combinedTicker}`,
    );
  for (const stock of [A, B])
    await until(
      () =>
        post(
          '/api/emailMarketingSettings/',
          {
            StockId: stock.id,
            Settings: { provider: 'mailchimp', apiKey: 'demo-mailchimp-key-us1', listId: 'demo-list' },
          },
          'admin',
        ),
      (r) => r.status === 200,
      `the email-marketing service knowing ${stock.combinedTicker}`,
    );

  async function saveAnnouncement(stock: Stock, headline: string, pdf: Buffer): Promise<string> {
    const res = await until(
      () =>
        http
          .post(`/api/Announcement/save/${encodeURIComponent(stock.combinedTicker)}`)
          .set('Cookie', sessions.admin.cookie)
          .set(CSRF_HEADER, sessions.admin.csrf)
          .field('headline', headline)
          .field('date', '22 Mar 2025 8:50 AM')
          .field('priceSensitive', 'false')
          .attach('file', pdf, { filename: 'a.pdf', contentType: 'application/pdf' }),
      (r) => r.status === 200,
      `the announcements service saving on ${stock.combinedTicker}`,
    );
    return (res.body as { announcement: { sendGuid: string } }).announcement.sendGuid;
  }

  async function subscribe(stock: Stock, email: string) {
    const res = await post(`/api/widget/subscribe?apiKey=${stock.apiKey}`, { email });
    if (res.status !== 200) throw new Error(`subscribing ${email} answered ${res.status}`);
    const mails = await backend.sink.waitFor(
      (all) => all.some((m) => m.to.includes(email)),
      `the confirmation mail to ${email}`,
    );
    const mail = mails.filter((m) => m.to.includes(email)).at(-1)!;
    const confirm = new RegExp(`${PUBLIC_BASE_URL}/subscription/confirm/([A-Za-z0-9_-]+)`).exec(
      mail.text,
    )?.[1];
    const unsubscribe = new RegExp(`${PUBLIC_BASE_URL}/api/subscription/unsubscribe/([A-Za-z0-9_-]+)`).exec(
      String(mail.rawHeaders['list-unsubscribe']),
    )?.[1];
    if (!confirm || !unsubscribe) throw new Error(`no links in the confirmation mail to ${email}`);
    return { confirm, unsubscribe };
  }

  async function completedReconcile(): Promise<string> {
    type Run = { id: string; status: string } | null;
    const last = (await adminRead(await get('/api/reconcile/last', 'admin'), 'the last reconcile')) as Run;
    let id = last && (last.status === 'running' || last.status === 'completed') ? last.id : undefined;
    if (!id) {
      const started = await post('/api/reconcile/run?numDays=1', {}, 'admin');
      id = ((await adminRead(started, 'a reconcile run')) as { id: string }).id;
    }
    const done = await until(
      async () => (await get(`/api/reconcile/get/${id}`, 'admin')).body as { status: string },
      (r) => r.status !== 'running',
      'the reconcile run finishing',
      60_000,
    );
    if (done.status !== 'completed') throw new Error(`the reconcile run ended ${JSON.stringify(done)}`);
    return id;
  }

  const pdf = await makePdf('Matrix Report');
  const announcementA = await saveAnnouncement(A, 'Alpha Matrix Results', pdf);
  const announcementB = await saveAnnouncement(B, 'Beta Matrix Results', pdf);
  const comment = async (stock: Stock, sendGuid: string) => {
    const res = await post(`/api/widget/comments?apiKey=${stock.apiKey}`, {
      sendGuid,
      name: 'Pat Investor',
      email: 'pat@investor.example',
      comment: `A question about ${stock.ticker}`,
    });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`commenting on ${stock.ticker} answered ${res.status}`);
    return (res.body as { guid: string }).guid;
  };
  const ctx: MatrixContext = {
    run,
    A,
    B,
    tickerStock,
    archiveStock,
    resyncStock,
    announcementA,
    announcementB,
    commentA: await comment(A, announcementA),
    commentB: await comment(B, announcementB),
    pdf,
    providersUrl: backend.providers!.url,
    db,
    mails: () => backend.sink.mails,
    adminGet: async (path) => adminRead(await get(path, 'admin'), `GET ${path}`),
    adminPost: async (path, body) => adminRead(await post(path, body, 'admin'), `POST ${path}`),
    adminForm: async (path, fields) => {
      let r = http.post(path).set('Cookie', sessions.admin.cookie).set(CSRF_HEADER, sessions.admin.csrf);
      for (const [name, value] of Object.entries(fields)) r = r.field(name, value);
      return adminRead(await r, `POST ${path}`);
    },
    saveAnnouncement: (stock, headline) => saveAnnouncement(stock, headline, pdf),
    subscribe,
    completedReconcile,
    state: {},
  };
  return {
    backend,
    gateway,
    http,
    db,
    sessions,
    get,
    post,
    ctx,
    archived,
    expired,
    async stop() {
      await gateway.close();
      await db.end();
    },
  };
}
