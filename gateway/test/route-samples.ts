import { asxTradingDaysBefore, PROVIDER_API_KEY_HEADER, Stock, sydneyDayOf, Topics } from '@irp/proto';
import type { SinkMail } from '@irp/platform/testing';
import type { Client } from 'pg';
import { until } from './gateway-harness';

/**
 * The route matrix's fixtures (backend/route-matrix.cases.ts): for every entry of the route table, by its id
 * (`stocks.save`), a valid request and, for a route that changes something, a read of what it changes.
 * The matrix calls each route the gateway serves as seven callers and fails on a route without a sample
 * here, so a new route brings its sample with it.
 *
 * A sample that names a stock with per-stock roles names stock A (the matrix's clients hold their roles
 * there, and it checks the sample does). Mutating samples must not break each other or the samples after
 * them: each caller changes its own record or sets its own value, dedicated stocks take ticker changes
 * and archiving, and what is shared is put back (`after`).
 */

/** Who calls: signed out, the demo staff, and the route's three clients (see the spec). */
export type CallerName =
  'signedOut' | 'admin' | 'reports' | 'useradmin' | 'holder' | 'otherStock' | 'lacking';

export const CALLERS: readonly CallerName[] = [
  'signedOut',
  'admin',
  'reports',
  'useradmin',
  'holder',
  'otherStock',
  'lacking',
];

export interface SampleRequest {
  /** `{name}` path parameters. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: object;
  /** A multipart form instead of `body`: its text fields and one file (none for a form of text fields). */
  form?: { fields: Record<string, string>; file?: { field: string; data: Buffer; filename: string } };
  headers?: Record<string, string>;
}

/** What the samples reach: the test's stocks and records, set up by the spec's beforeAll. */
export interface MatrixContext {
  /** Unique to this run (tickers, addresses). */
  run: string;
  /** The stock the clients' roles are on (`holder`, `lacking`); its API key is the widget's. */
  A: Stock;
  /** The other client's stock (`otherStock` holds every role here). */
  B: Stock;
  /** Stocks that only one sample changes: a ticker change, archiving, a resync. */
  tickerStock: Stock;
  archiveStock: Stock;
  resyncStock: Stock;
  /** Announcements (sendGuid) with a stored PDF on A and on B. */
  announcementA: string;
  announcementB: string;
  /** Comments (guid) posted through the widget on A's and B's announcements. */
  commentA: string;
  commentB: string;
  /** A one-page PDF. */
  pdf: Buffer;
  /** The email-marketing providers' stand-in (the demo lists: demo-mailchimp-key-us1 / demo-list). */
  providersUrl: string;
  db: Client;
  mails: () => SinkMail[];
  /** GET or POST as the admin; the parsed body, failing on any status but 2xx. */
  adminGet(path: string): Promise<unknown>;
  adminPost(path: string, body: object): Promise<unknown>;
  /** POST a multipart form of text fields as the admin (the Reports tab's generate). */
  adminForm(path: string, fields: Record<string, string>): Promise<unknown>;
  /** An announcement saved on the stock by the admin (with the PDF); its sendGuid. */
  saveAnnouncement(stock: Stock, headline: string): Promise<string>;
  /** A subscription of `email` to the stock through the widget: its confirm and unsubscribe tokens. */
  subscribe(stock: Stock, email: string): Promise<{ confirm: string; unsubscribe: string }>;
  /** A completed reconcile run (one is run and waited for when none is known); its id. */
  completedReconcile(): Promise<string>;
  /** What a sample's `prepare` keeps for its requests. */
  state: Record<string, unknown>;
}

export interface RouteSample {
  /** The request of one caller (each caller may get its own record or value). */
  request(ctx: MatrixContext, caller: CallerName): SampleRequest | Promise<SampleRequest>;
  /** Once, before the route's calls. */
  prepare?(ctx: MatrixContext): Promise<void>;
  /** What the route changes, read before and after the refused calls: it must not differ. */
  read?(ctx: MatrixContext): Promise<unknown>;
  /** Once, after the route's calls: puts back what later samples rely on. */
  after?(ctx: MatrixContext): Promise<void>;
  /**
   * After a call the route accepted: waits until the work it set going in the background (a poll, an
   * outbox relayed) is done, so that a read of the tables after it holds still.
   */
  settled?(ctx: MatrixContext): Promise<void>;
  /**
   * A status other than the access rule's for a caller, and why (e.g. the public session route answers
   * 401 to no session). Refusals are never overridden to a success.
   */
  status?: Partial<Record<CallerName, { status: number; why: string }>>;
  /** Each signed-in caller calls with a session of its own, signed in for this call (signing out ends it). */
  freshSession?: true;
}

/** The same status for every caller (a route every caller is answered alike by), and why. */
const everyCaller = (status: number, why: string) =>
  Object.fromEntries(CALLERS.map((c) => [c, { status, why }])) as RouteSample['status'];
/** The same status for every signed-in caller, and why. */
const everySignedIn = (status: number, why: string) =>
  Object.fromEntries(
    CALLERS.filter((c) => c !== 'signedOut').map((c) => [c, { status, why }]),
  ) as RouteSample['status'];

const DATE = '22 Mar 2025 8:50 AM';
const DEMO_KEY = 'demo-mailchimp-key-us1';
const DEMO_LIST = 'demo-list';

const rowOf = async (db: Client, sql: string, params: unknown[]) => (await db.query(sql, params)).rows;
/** A stock's row as the stocks service stores it: every column. */
const stockRow = (ctx: MatrixContext, stock: Stock) =>
  rowOf(ctx.db, 'SELECT * FROM stocks.stocks WHERE id = $1', [stock.id]);
const announcementsOf = async (ctx: MatrixContext, stock: Stock) =>
  (
    (await ctx.adminGet(`/api/Announcement/list/${encodeURIComponent(stock.combinedTicker)}`)) as {
      announcements: Array<{ sendGuid: string } & Record<string, unknown>>;
    }
  ).announcements;
/** Outbox rows of the announcements service of one topic about one stock: each a requested effect. */
const outboxCount = async (ctx: MatrixContext, topic: string, stock: Stock) =>
  (
    await rowOf(
      ctx.db,
      `SELECT count(*)::int AS n FROM announcements.outbox WHERE topic = $1 AND payload->>'stockId' = $2`,
      [topic, stock.id],
    )
  )[0];
/** The campaigns the providers' stand-in made from the samples' test sends (fromName 'Matrix send ...'). */
const testSends = async (ctx: MatrixContext) =>
  (
    (await (await fetch(`${ctx.providersUrl}/standin/campaigns`)).json()) as Array<{
      fromName: string;
      testSentTo: string[];
      sentTo: string[];
    }>
  ).filter((c) => c.fromName.startsWith('Matrix send'));
const address = (ctx: MatrixContext, what: string, caller: CallerName) =>
  `${what}-${caller.toLowerCase()}-${ctx.run.toLowerCase()}@example.com`;
const perCaller = <T>(ctx: MatrixContext, key: string) => ctx.state[key] as Record<CallerName, T>;
const providerSettings = (ctx: MatrixContext, caller: CallerName, use: 'send' | 'settings') => ({
  provider: 'mailchimp',
  apiKey: DEMO_KEY,
  listId: DEMO_LIST,
  fromName: `Matrix ${use} (${caller})`,
  replyTo: 'ir@matrix.example',
  testEmailAddresses: address(ctx, 'test', caller),
});

/**
 * An invoice of stock A: the demo's invoice without a reference (no stock matches it), assigned to A by the
 * admin once the invoicing service has read the accounting stand-in.
 */
async function invoiceOfA(ctx: MatrixContext): Promise<string> {
  if (typeof ctx.state.invoiceOfA === 'string') return ctx.state.invoiceOfA;
  type Page = { invoices: Array<{ invoiceID: string; text: string }> };
  let page: Page = { invoices: [] };
  for (let tries = 0; tries < 100 && !page.invoices.length; tries++) {
    page = (await ctx.adminPost('/api/admin/refreshAccounting', {})) as Page;
    if (!page.invoices.length) await new Promise((r) => setTimeout(r, 200));
  }
  const invoice = page.invoices.find((i) => i.text.includes('no reference')) ?? page.invoices[0];
  if (!invoice) throw new Error('the invoicing service read no invoice from the accounting stand-in');
  await ctx.adminPost('/api/admin/assignAccountingInvoices', {
    items: [{ invoiceId: invoice.invoiceID, ticker: ctx.A.combinedTicker }],
  });
  ctx.state.invoiceOfA = invoice.invoiceID;
  return invoice.invoiceID;
}

/**
 * The latest ASX trading day whose trades are published (T+3, the market-data stand-in's default and the
 * reports service's MARKET_DATA_PUBLICATION_LAG_DAYS): the one the prior-day job loads.
 */
const priorDay = () => asxTradingDaysBefore(sydneyDayOf(new Date()), 3)[0]!;

/** Until the reports service knows stock A (its projection follows stock.upserted). */
async function reportsKnowA(ctx: MatrixContext): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await ctx.adminGet(`/api/admin/reports?ticker=${ctx.A.combinedTicker}`);
      return;
    } catch (error) {
      if (tries > 100) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** A report of stock A over the prior day (its trades loaded by the prior-day job first); its guid. */
async function reportOfA(ctx: MatrixContext): Promise<string> {
  if (typeof ctx.state.reportOfA === 'string') return ctx.state.reportOfA;
  await reportsKnowA(ctx);
  await ctx.adminPost('/api/admin/runPriorDay', {});
  const { report } = (await ctx.adminForm('/api/admin/generateReport', {
    Ticker: ctx.A.combinedTicker,
    StartDate: priorDay(),
    EndDate: priorDay(),
    // Ticked, so that the public search (publicGenerateReport) has a report that allows it.
    AllowSearch: 'true',
  })) as { report: { guid: string } };
  ctx.state.reportOfA = report.guid;
  return report.guid;
}

const testSendBody = (ctx: MatrixContext, caller: CallerName) => {
  const { apiKey: emailMarketingApiKey, ...settings } = providerSettings(ctx, caller, 'send');
  return { ...settings, apiKey: ctx.A.apiKey!, emailMarketingApiKey };
};

/** A complete public order form (spec section 3), named for the caller. */
const orderForm = (ctx: MatrixContext, companyName: string) => ({
  companyName,
  ticker: `MO${ctx.run}`,
  website: 'https://orders.matrix.example',
  address: '190 St Georges Terrace, Perth WA 6000',
  contactName: 'Matrix Contact',
  contactPhone: '08 9322 4410',
  contactEmail: 'orders@matrix.example',
  abn: '51 824 753 556',
  authorisedBy: 'Matrix Contact',
});
/** A token of the order form as the form fetches it when it is shown (sent back as `formToken`). */
const orderFormToken = async (ctx: MatrixContext) =>
  ((await ctx.adminGet('/api/serviceorder/form-token')) as { token: string }).token;

export const ROUTE_SAMPLES: Readonly<Record<string, RouteSample>> = {
  // ----------------------------------------------------------------------------------------------- users
  'users.login': {
    // Signing in is public: every caller signs in the demo announcer (a session of its own).
    request: () => ({
      headers: { Authorization: `Basic ${Buffer.from('announcer:Announcer!2026').toString('base64')}` },
    }),
  },
  'users.logout': { request: () => ({}), freshSession: true },
  'users.refreshToken': {
    request: () => ({}),
    status: { signedOut: { status: 401, why: 'no session and no refresh cookie: nobody to answer for' } },
  },

  'users.list': { request: () => ({}) },
  'users.get': {
    prepare: async (ctx) => {
      const users = (await ctx.adminGet('/api/users/')) as Array<{ id: string; username: string }>;
      ctx.state.announcerId = users.find((u) => u.username === 'announcer')?.id;
    },
    request: (ctx) => ({ params: { id: ctx.state.announcerId as string } }),
  },
  'users.save': {
    // Each allowed caller creates a client user of its own.
    request: (ctx, caller) => ({
      params: { id: 'new' },
      body: { username: `rm-new-${ctx.run}-${caller}`, password: 'Matrix-Users-Pass-2026', permissions: [] },
    }),
    read: (ctx) =>
      rowOf(ctx.db, `SELECT username FROM users.users WHERE username LIKE $1 ORDER BY 1`, [
        `rm-new-${ctx.run}-%`,
      ]),
  },
  'users.companies': { request: (ctx) => ({ query: { search: ctx.A.ticker } }) },
  'users.changeOwnPassword': {
    // A real change would end the caller's other sessions, the matrix's own among them: the current
    // password is wrong, so every signed-in caller is answered 400 and nothing changes.
    request: () => ({ body: { currentPassword: 'not-the-password', newPassword: 'Matrix-Users-Pass-2026' } }),
    read: (ctx) => rowOf(ctx.db, 'SELECT id, password_hash FROM users.users ORDER BY id', []),
    status: Object.fromEntries(
      CALLERS.filter((c) => c !== 'signedOut').map((c) => [
        c,
        { status: 400, why: 'a wrong current password, so that no session of the matrix ends' },
      ]),
    ),
  },
  // Second factors (issue 34). The sign-in's second step needs the ticket cookie of a right password, which
  // no caller of the matrix has: 401 for everyone.
  'users.signInPasskeyOptions': { request: () => ({}), status: everyCaller(401, 'no second-factor ticket') },
  'users.signInPasskey': {
    request: () => ({ body: { response: { id: 'matrix', type: 'public-key' } } }),
    status: everyCaller(401, 'no second-factor ticket'),
  },
  'users.signInCode': {
    request: () => ({ body: { code: '123456' } }),
    status: everyCaller(401, 'no second-factor ticket'),
  },
  'users.accountSecurity': { request: () => ({}) },
  'users.passkeyOptions': {
    request: () => ({}),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.passkey_challenges ORDER BY user_id', []),
  },
  'users.addPasskey': {
    // No authenticator in the matrix: the response does not verify, so nothing is added.
    request: () => ({
      body: { name: 'Matrix key', response: { id: 'matrix', type: 'public-key', response: {} } },
    }),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.passkeys ORDER BY id', []),
    status: everySignedIn(400, 'a passkey response that does not verify'),
  },
  'users.removePasskey': {
    request: () => ({ params: { id: '00000000-0000-4000-8000-000000000000' } }),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.passkeys ORDER BY id', []),
    status: everySignedIn(404, 'no passkey of that id'),
  },
  'users.beginTotp': {
    request: () => ({}),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.totp ORDER BY user_id', []),
  },
  'users.confirmTotp': {
    request: () => ({ body: { code: 'not-a-code' } }),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.totp ORDER BY user_id', []),
    status: everySignedIn(400, 'not a code of the authenticator secret'),
  },
  'users.removeTotp': {
    request: () => ({}),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.totp ORDER BY user_id', []),
  },
  'users.renewRecoveryCodes': {
    request: () => ({}),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM users.recovery_codes ORDER BY code_hash', []),
    status: everySignedIn(400, 'recovery codes come with a second factor, which no caller has'),
  },

  // ---------------------------------------------------------------------------------------------- stocks
  'stocks.list': { request: () => ({ query: { startDate: '2025-01-01', endDate: '2025-12-31' } }) },
  'stocks.save': {
    request: (ctx, caller) => ({ body: { id: ctx.A.id, companyName: `Alpha Matrix (${caller})` } }),
    read: (ctx) => stockRow(ctx, ctx.A),
    after: async (ctx) => {
      await ctx.adminPost('/api/admin/stocks', { id: ctx.A.id, companyName: ctx.A.companyName });
    },
  },
  'stocks.get': { request: (ctx) => ({ params: { combinedTicker: ctx.A.combinedTicker } }) },
  'stocks.changeTicker': {
    request: (ctx) => ({
      body: {
        exchange: ctx.tickerStock.exchange,
        ticker: ctx.tickerStock.ticker,
        newTicker: `${ctx.tickerStock.ticker}N`.slice(0, 20),
      },
    }),
    read: (ctx) => stockRow(ctx, ctx.tickerStock),
  },
  'stocks.archive': {
    request: (ctx) => ({
      body: { exchange: ctx.archiveStock.exchange, ticker: ctx.archiveStock.ticker, archived: true },
    }),
    read: (ctx) => stockRow(ctx, ctx.archiveStock),
    after: async (ctx) => {
      await ctx.adminPost('/api/admin/archiveStock', {
        exchange: ctx.archiveStock.exchange,
        ticker: ctx.archiveStock.ticker,
        archived: false,
      });
    },
  },
  'stocks.newApiKey': { request: () => ({}) },
  'stocks.exchanges': { request: () => ({}) },
  'stocks.clientGet': { request: (ctx) => ({ query: { combinedTicker: ctx.A.combinedTicker } }) },
  'stocks.clientSave': {
    request: (ctx, caller) => ({
      body: { combinedTicker: ctx.A.combinedTicker, websiteUrl: `https://alpha-${caller}.example` },
    }),
    read: (ctx) => stockRow(ctx, ctx.A),
    after: async (ctx) => {
      await ctx.adminPost('/api/admin/stocks', { id: ctx.A.id, websiteUrl: ctx.A.websiteUrl });
    },
  },
  'stocks.clientDashboard': { request: () => ({}) },
  'stocks.notes': { request: (ctx) => ({ query: { ticker: ctx.A.combinedTicker } }) },
  'stocks.saveNote': {
    request: (ctx, caller) => ({
      body: { ticker: ctx.A.combinedTicker, details: `Matrix note (${caller})` },
    }),
    read: (ctx) => ctx.adminGet(`/api/admin/getNotes?ticker=${encodeURIComponent(ctx.A.combinedTicker)}`),
  },
  'stocks.versionHistory': { request: (ctx) => ({ query: { ticker: ctx.A.combinedTicker } }) },
  'stocks.stockReferers': { request: (ctx) => ({ query: { ticker: ctx.A.combinedTicker } }) },
  'stocks.referers': { request: () => ({}) },
  'stocks.widgetStock': { request: (ctx) => ({ query: { apiKey: ctx.A.apiKey! } }) },

  // ------------------------------------------------------------------------------------- service orders
  // No group named: the default group (the demo's, from the stocks seed).
  'stocks.serviceOptions': { request: () => ({ query: {} }) },
  'stocks.orderFormToken': { request: () => ({}) },
  'stocks.submitOrder': {
    // Public: every caller orders (the test gateway's per-address order limit is high), with the form's
    // token (the test gateway takes it at once).
    request: async (ctx, caller) => ({
      body: { ...orderForm(ctx, `Matrix Order ${caller}`), formToken: await orderFormToken(ctx) },
    }),
  },
  'stocks.addressSuggestions': { request: () => ({ query: { q: '190 St Georges Terrace' } }) },
  'stocks.serviceOrders': { request: () => ({}) },
  'stocks.createStockFromServiceOrder': {
    prepare: async (ctx) => {
      const { id } = (await ctx.adminPost('/api/serviceorder/', {
        ...orderForm(ctx, 'Matrix Create Order'),
        formToken: await orderFormToken(ctx),
      })) as { id: string };
      ctx.state.serviceOrderId = id;
    },
    // Only the admin gets through: it creates the stock once (the others are refused before).
    request: (ctx) => ({
      body: { serviceOrderId: ctx.state.serviceOrderId, ticker: `MO${ctx.run}`, reference: `MO-${ctx.run}` },
    }),
    read: async (ctx) => [
      await rowOf(ctx.db, 'SELECT * FROM stocks.service_orders WHERE id = $1', [ctx.state.serviceOrderId]),
      await rowOf(ctx.db, 'SELECT count(*)::int AS n FROM stocks.stocks WHERE ticker = $1', [`MO${ctx.run}`]),
    ],
  },
  'stocks.serviceOrderOfStock': { request: (ctx) => ({ query: { ticker: ctx.A.combinedTicker } }) },
  'stocks.optionGroups': { request: () => ({}) },
  'stocks.saveOptionGroup': {
    // Only the admin gets through: a group of this run (never the default: one exists already).
    request: (ctx, caller) => ({
      body: {
        name: `Matrix group ${ctx.run} ${caller}`,
        options: [{ name: 'Matrix', price: 100, lineItems: ['One'], isDefault: true }],
      },
    }),
    read: (ctx) =>
      rowOf(ctx.db, `SELECT * FROM stocks.service_option_groups WHERE name LIKE $1 ORDER BY name`, [
        `Matrix group ${ctx.run}%`,
      ]),
  },
  'stocks.setDefaultOptionGroup': {
    prepare: async (ctx) => {
      const { groups } = (await ctx.adminGet('/api/admin/serviceOptionGroups')) as {
        groups: Array<{ id: string; isDefault: boolean }>;
      };
      ctx.state.defaultGroupId = groups.find((g) => g.isDefault)?.id;
    },
    // The admin makes the default group the default again: nothing else moves under the other specs.
    request: (ctx) => ({ body: { id: ctx.state.defaultGroupId as string } }),
    read: (ctx) => rowOf(ctx.db, `SELECT id, is_default FROM stocks.service_option_groups ORDER BY id`, []),
  },
  'stocks.archiveOptionGroup': {
    prepare: async (ctx) => {
      const { group } = (await ctx.adminPost('/api/admin/saveServiceOptionGroup', {
        name: `Matrix archived ${ctx.run}`,
        options: [{ name: 'Matrix', price: 100, lineItems: [], isDefault: true }],
      })) as { group: { id: string } };
      ctx.state.archivedGroupId = group.id;
    },
    request: (ctx) => ({ body: { id: ctx.state.archivedGroupId as string, archived: true } }),
    read: (ctx) =>
      rowOf(ctx.db, `SELECT * FROM stocks.service_option_groups WHERE id = $1`, [ctx.state.archivedGroupId]),
  },

  // --------------------------------------------------------------------------------------- announcements
  'announcements.list': { request: (ctx) => ({ params: { combinedTicker: ctx.A.combinedTicker } }) },
  'announcements.save': {
    request: (ctx, caller) => ({
      params: { combinedTicker: ctx.A.combinedTicker },
      form: {
        fields: { headline: `Matrix Report (${caller})`, date: DATE, priceSensitive: 'false' },
        file: { field: 'file', data: ctx.pdf, filename: 'matrix.pdf' },
      },
    }),
    read: async (ctx) => (await announcementsOf(ctx, ctx.A)).map((a) => [a.sendGuid, a.headline]),
  },
  'announcements.delete': {
    // Each caller deletes an announcement of its own (one cannot be deleted twice).
    prepare: async (ctx) => {
      const own: Partial<Record<CallerName, string>> = {};
      for (const caller of CALLERS) own[caller] = await ctx.saveAnnouncement(ctx.A, `To delete (${caller})`);
      ctx.state.toDelete = own;
    },
    request: (ctx, caller) => ({
      params: { combinedTicker: ctx.A.combinedTicker },
      body: { sendGuid: perCaller<string>(ctx, 'toDelete')[caller] },
    }),
    read: async (ctx) => {
      const own = Object.values(perCaller<string>(ctx, 'toDelete'));
      return (await announcementsOf(ctx, ctx.A))
        .filter((a) => own.includes(a.sendGuid))
        .map((a) => [a.sendGuid, a.deletedOn]);
    },
  },
  'announcements.send': {
    request: (ctx) => ({
      params: { combinedTicker: ctx.A.combinedTicker },
      query: { sendOverride: 'true' },
      body: { sendGuid: ctx.announcementA },
    }),
    read: async (ctx) => ({
      // Either lane's topic: a price-sensitive announcement's request has its own (docs/adr/0018).
      requested:
        (await outboxCount(ctx, Topics.AnnouncementSendRequested, ctx.A)) +
        (await outboxCount(ctx, Topics.AnnouncementPrioritySendRequested, ctx.A)),
      announcement: (await announcementsOf(ctx, ctx.A))
        .filter((a) => a.sendGuid === ctx.announcementA)
        .map((a) => a.sendRequestedAt),
    }),
  },
  'announcements.pdf': { request: (ctx) => ({ params: { sendGuid: ctx.announcementA } }) },
  'announcements.sendConfirmation': {
    request: (ctx) => ({
      params: { combinedTicker: ctx.A.combinedTicker },
      body: { sendGuid: ctx.announcementA },
    }),
    read: (ctx) => outboxCount(ctx, Topics.AnnouncementConfirmationRequested, ctx.A),
  },
  'announcements.resync': {
    request: (ctx) => ({ query: { ticker: ctx.resyncStock.combinedTicker }, body: {} }),
    read: async (ctx) =>
      (
        (await ctx.adminGet(`/api/stock/${encodeURIComponent(ctx.resyncStock.combinedTicker)}`)) as {
          initialPoll: unknown;
        }
      ).initialPoll,
    // The resync's poll runs after the answer, year by year, and its events leave through the outbox.
    settled: async (ctx) => {
      await until(
        () =>
          rowOf(
            ctx.db,
            `SELECT (SELECT count(*)::int FROM announcements.initial_polls WHERE stock_id = $1) AS polls,
                    (SELECT count(*)::int FROM announcements.initial_polls
                      WHERE stock_id = $1 AND status = 'running') AS running,
                    (SELECT count(*)::int FROM announcements.outbox WHERE published_at IS NULL) AS unpublished`,
            [ctx.resyncStock.id],
          ).then((rows) => rows[0] as { polls: number; running: number; unpublished: number }),
        (r) => r.polls > 0 && r.running === 0 && r.unpublished === 0,
        `the resync of ${ctx.resyncStock.combinedTicker} finished and its events published`,
        120_000,
      );
    },
  },
  'announcements.systemSettings': { request: () => ({}) },
  'announcements.saveSystemSettings': {
    prepare: async (ctx) => {
      ctx.state.settings = await ctx.adminGet('/api/admin/systemSettings');
    },
    request: (ctx, caller) => {
      const settings = ctx.state.settings as Record<string, unknown>;
      return {
        body: {
          ...settings,
          disablePollUntil: settings.disablePollUntil ?? '',
          errorEmail: address(ctx, 'errors', caller),
        },
      };
    },
    read: (ctx) => ctx.adminGet('/api/admin/systemSettings'),
    after: async (ctx) => {
      const settings = ctx.state.settings as Record<string, unknown>;
      await ctx.adminPost('/api/admin/systemSettings', {
        ...settings,
        disablePollUntil: settings.disablePollUntil ?? '',
      });
    },
  },
  'announcements.fileCleanup': { request: () => ({}) },
  'announcements.diskReport': { request: () => ({ query: { includeBillable: 'true' } }) },
  'announcements.reconcileRun': {
    // Before the others' prepare runs one: a run started here is the one they wait for.
    request: () => ({ query: { numDays: '1' }, body: {} }),
    read: (ctx) => ctx.adminGet('/api/reconcile/last'),
    after: async (ctx) => {
      await ctx.completedReconcile();
    },
  },
  'announcements.reconcileGet': {
    prepare: async (ctx) => {
      ctx.state.reconcile = await ctx.completedReconcile();
    },
    request: (ctx) => ({ params: { id: ctx.state.reconcile as string } }),
  },
  'announcements.reconcileApply': {
    prepare: async (ctx) => {
      ctx.state.reconcile = await ctx.completedReconcile();
    },
    request: (ctx) => ({ params: { id: ctx.state.reconcile as string }, body: {} }),
    read: (ctx) => ctx.adminGet(`/api/reconcile/get/${ctx.state.reconcile as string}`),
  },
  'announcements.reconcileLast': { request: () => ({}) },
  'announcements.comments': { request: (ctx) => ({ query: { combinedTicker: ctx.A.combinedTicker } }) },
  'announcements.commentResponse': { request: (ctx) => ({ params: { guid: ctx.commentA } }) },
  'announcements.respondToComment': {
    request: (ctx, caller) => ({
      params: { guid: ctx.commentA },
      body: { guid: ctx.commentA, comment: `Matrix response (${caller})`, isPublic: false },
    }),
    read: (ctx) => ctx.adminGet(`/api/AnnouncementCommentResponse/${ctx.commentA}`),
  },
  'announcements.widgetAnnouncements': { request: (ctx) => ({ query: { apiKey: ctx.A.apiKey! } }) },
  'announcements.widgetPostComment': {
    request: (ctx, caller) => ({
      query: { apiKey: ctx.A.apiKey! },
      body: {
        sendGuid: ctx.announcementA,
        name: `Matrix ${caller}`,
        email: address(ctx, 'commenter', caller),
        comment: 'What does the matrix say about this announcement?',
      },
    }),
  },
  'announcements.widgetComments': {
    request: (ctx) => ({ query: { apiKey: ctx.A.apiKey!, sendGuid: ctx.announcementA } }),
  },
  'announcements.widgetCommentGroups': { request: (ctx) => ({ query: { apiKey: ctx.A.apiKey! } }) },
  'announcements.widgetAnnouncement': {
    request: (ctx) => ({ query: { apiKey: ctx.A.apiKey!, sendGuid: ctx.announcementA } }),
  },

  // ------------------------------------------------------------------------------------- email marketing
  'emailMarketing.subscriberCount': {
    // The key as typed goes in a header, never the URL (a key in the query is refused).
    request: (ctx) => ({
      query: { stockId: ctx.A.id, listId: DEMO_LIST, clientId: '' },
      headers: { [PROVIDER_API_KEY_HEADER]: DEMO_KEY },
    }),
  },
  'emailMarketing.settings': { request: (ctx) => ({ query: { id: ctx.A.id } }) },
  'emailMarketing.deliverability': { request: (ctx) => ({ query: { stockId: ctx.A.id, days: '7' } }) },
  'emailMarketing.saveSettings': {
    request: (ctx, caller) => ({
      body: { StockId: ctx.A.id, Settings: providerSettings(ctx, caller, 'settings') },
    }),
    read: (ctx) => ctx.adminGet(`/api/emailMarketingSettings/?id=${ctx.A.id}`),
  },
  'emailMarketing.sendTestEmail': {
    // Spec section 7's body: `apiKey` is the stock's product API key (it names the stock); the
    // email-marketing key as typed goes in `emailMarketingApiKey`.
    request: (ctx, caller) => ({ body: testSendBody(ctx, caller) }),
    read: (ctx) => testSends(ctx),
  },
  'emailMarketing.sendToSubscribers': {
    // Spec section 7's body: `apiKey` is the stock's product API key (it names the stock); the
    // email-marketing key as typed goes in `emailMarketingApiKey`.
    request: (ctx, caller) => ({ body: testSendBody(ctx, caller) }),
    read: (ctx) => testSends(ctx),
  },
  'emailMarketing.widgetSubscribe': {
    request: (ctx, caller) => ({
      query: { apiKey: ctx.A.apiKey! },
      body: { email: address(ctx, 'subscriber', caller) },
    }),
  },
  'emailMarketing.confirm': {
    // A confirmation link works once: each caller confirms a subscription of its own.
    prepare: async (ctx) => {
      const subscribed = await Promise.all(
        CALLERS.map(
          async (caller) => [caller, await ctx.subscribe(ctx.A, address(ctx, 'confirmer', caller))] as const,
        ),
      );
      ctx.state.confirmTokens = Object.fromEntries(subscribed.map(([caller, s]) => [caller, s.confirm]));
    },
    request: (ctx, caller) => ({
      params: { token: perCaller<string>(ctx, 'confirmTokens')[caller] },
      body: {},
    }),
  },
  'emailMarketing.subscription': {
    prepare: async (ctx) => {
      ctx.state.unsubscribeToken = (await ctx.subscribe(ctx.A, address(ctx, 'reader', 'admin'))).unsubscribe;
    },
    request: (ctx) => ({ params: { token: ctx.state.unsubscribeToken as string } }),
  },
  'emailMarketing.unsubscribe': {
    // Idempotent: every caller may unsubscribe the same address.
    prepare: async (ctx) => {
      ctx.state.leaverToken = (await ctx.subscribe(ctx.A, address(ctx, 'leaver', 'admin'))).unsubscribe;
    },
    request: (ctx) => ({
      params: { token: ctx.state.leaverToken as string },
      body: { 'List-Unsubscribe': 'One-Click' },
    }),
  },
  'emailMarketing.preferences': {
    prepare: async (ctx) => {
      ctx.state.chooserToken = (await ctx.subscribe(ctx.A, address(ctx, 'chooser', 'admin'))).unsubscribe;
    },
    request: (ctx) => ({ params: { token: ctx.state.chooserToken as string } }),
  },
  'emailMarketing.savePreferences': {
    // Every caller saves the same choice for the same address: the same outcome each time.
    prepare: async (ctx) => {
      ctx.state.pauserToken = (await ctx.subscribe(ctx.A, address(ctx, 'pauser', 'admin'))).unsubscribe;
    },
    request: (ctx) => ({
      params: { token: ctx.state.pauserToken as string },
      body: { preference: 'price-sensitive', pauseWeeks: 2 },
    }),
    read: (ctx) =>
      rowOf(
        ctx.db,
        `SELECT preference, paused_until IS NOT NULL AS paused FROM email_marketing.subscribers
         WHERE email = $1`,
        [address(ctx, 'pauser', 'admin')],
      ),
  },
  'emailMarketing.subscribers': { request: (ctx) => ({ query: { combinedTicker: ctx.A.combinedTicker } }) },
  'emailMarketing.sendSystemEmail': {
    request: (ctx, caller) => ({ body: { email: address(ctx, 'system', caller) } }),
    read: async (ctx) =>
      ctx
        .mails()
        .flatMap((m) => m.to)
        .filter((to) => to.startsWith('system-')).length,
  },

  // ------------------------------------------------------------------------------------------- invoicing
  'invoicing.invoices': { request: (ctx) => ({ query: { ticker: ctx.A.combinedTicker } }) },
  'invoicing.saveInvoiceData': {
    request: (ctx) => ({ params: { ticker: ctx.A.combinedTicker }, body: { repeatingInvoiceId: null } }),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM invoicing.stock_billing WHERE stock_id = $1', [ctx.A.id]),
  },
  'invoicing.accountingPage': { request: () => ({}) },
  // The page after stock A's invoice (a cursor stays good after its invoice is assigned).
  'invoicing.accountingInvoices': {
    prepare: (ctx) => invoiceOfA(ctx).then(() => undefined),
    request: (ctx) => ({
      params: { list: 'unassigned' },
      query: { after: ctx.state.invoiceOfA as string },
    }),
  },
  'invoicing.refreshAccounting': { request: () => ({ body: {} }) },
  'invoicing.assignInvoices': {
    prepare: (ctx) => invoiceOfA(ctx).then(() => undefined),
    request: (ctx) => ({
      body: { items: [{ invoiceId: ctx.state.invoiceOfA as string, ticker: ctx.A.combinedTicker }] },
    }),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM invoicing.assignments ORDER BY invoice_id', []),
  },
  'invoicing.createContact': {
    request: (ctx) => ({ query: { id: ctx.A.id }, body: {} }),
    read: (ctx) =>
      rowOf(ctx.db, 'SELECT contact_id FROM invoicing.stock_billing WHERE stock_id = $1', [ctx.A.id]),
  },
  'invoicing.createRepeatingInvoice': {
    request: (ctx) => ({ body: { id: ctx.A.id, amount: 1800 } }),
    read: (ctx) => rowOf(ctx.db, 'SELECT id FROM invoicing.repeating_invoices ORDER BY id', []),
  },
  'invoicing.reminderEmail': { request: (ctx) => ({ params: { combinedTicker: ctx.A.combinedTicker } }) },
  'invoicing.invoiceDownload': {
    prepare: (ctx) => invoiceOfA(ctx).then(() => undefined),
    request: (ctx) => ({
      query: { ticker: ctx.A.combinedTicker, invoiceId: ctx.state.invoiceOfA as string },
    }),
  },

  // --------------------------------------------------------------------------------------------- reports
  'reports.saveMarketData': {
    prepare: (ctx) => reportsKnowA(ctx),
    request: (ctx) => ({ params: { combinedTicker: ctx.A.combinedTicker }, body: { ask: '1.25', bid: 1.2 } }),
    read: (ctx) => rowOf(ctx.db, 'SELECT * FROM reports.quotes WHERE stock_id = $1', [ctx.A.id]),
  },
  'reports.getChartData': {
    prepare: (ctx) => reportsKnowA(ctx),
    request: (ctx) => ({ query: { id: ctx.A.id } }),
  },
  'reports.updateChartData': {
    prepare: (ctx) => reportsKnowA(ctx),
    request: (ctx) => ({ body: { id: ctx.A.id } }),
    read: (ctx) =>
      rowOf(ctx.db, 'SELECT count(*)::int AS n FROM reports.daily_prices WHERE stock_id = $1', [ctx.A.id]),
  },
  'reports.syncWatchlist': {
    request: () => ({ body: {} }),
    read: (ctx) => rowOf(ctx.db, 'SELECT count(*)::int AS n FROM reports.quotes', []),
  },
  'reports.runPriorDay': {
    prepare: (ctx) => reportsKnowA(ctx),
    request: () => ({ body: {} }),
    read: (ctx) => rowOf(ctx.db, 'SELECT count(*)::int AS n FROM reports.trade_days', []),
  },
  'reports.generateReport': {
    prepare: (ctx) => reportOfA(ctx).then(() => undefined),
    request: (ctx) => ({
      form: {
        fields: { Ticker: ctx.A.combinedTicker, StartDate: priorDay(), EndDate: priorDay(), Peers: '' },
      },
    }),
    read: (ctx) => rowOf(ctx.db, 'SELECT count(*)::int AS n FROM reports.reports', []),
  },
  'reports.reports': {
    prepare: (ctx) => reportsKnowA(ctx),
    request: (ctx) => ({ query: { ticker: ctx.A.combinedTicker } }),
  },
  'reports.report': {
    prepare: (ctx) => reportOfA(ctx).then(() => undefined),
    request: (ctx) => ({ params: { guid: ctx.state.reportOfA as string } }),
  },
  'reports.publicGenerateReport': {
    prepare: (ctx) => reportOfA(ctx).then(() => undefined),
    request: (ctx) => ({
      body: { Guid: ctx.state.reportOfA as string, StartDate: priorDay(), EndDate: priorDay() },
    }),
  },

  // --------------------------------------------------------------------------------------------- gateway
  'gateway.health': { request: () => ({}) },
  'gateway.live': { request: () => ({}) },
  'gateway.metrics': { request: () => ({}) },
};
