import { MARKET_DATA_FIELDS, MarketDataField, Stock, STOCK_ROLES } from '@irp/proto';
import { until } from './gateway-harness';
import { MatrixContext, ROUTE_SAMPLES, SampleRequest } from './route-samples';
import {
  DATES,
  dateVerdict,
  emailForms,
  emailVerdict,
  LINKS,
  linkVerdict,
  longList,
  NumberRule,
  NUMBERS,
  numberVerdict,
  REAL_YEARS,
  referenceVerdict,
  Row,
  show,
  someTickerForms,
  tickerForms,
  tickerReferences,
  tickerVerdict,
  TEXTS,
  textVerdict,
  Verdict,
  WHOLE_NUMBERS,
  YEARS,
} from './domain-values';

/**
 * The state-changing routes' fields, each with values from its domain (domain-values.ts) and where an
 * accepted value is stored, for the fuzz suite's domain walk (backend/fuzz.cases.ts): a case starts from
 * the route's sample (route-samples.ts), made afresh where a sample can succeed only once, and puts one
 * domain value in one field. Routes whose fields are ids, tokens or flags only are not here.
 */

export interface DomainLimits {
  /** The gateway's JSON_BODY_MAX_BYTES: long lists are made to fit in it. */
  jsonMaxBytes: number;
}

export interface DomainField {
  /** Where the value goes: a body path ('options.0.price') or a multipart field ('form.date'). */
  at: string;
  values(ctx: MatrixContext, limits: DomainLimits): readonly unknown[];
  /** Why what an accepted case stored breaks the field's rule (undefined: allowed); `before`: read before it. */
  verdict(row: Row, sent: unknown, before: Row | undefined, ctx: MatrixContext): Verdict;
}

export interface DomainRoute {
  /** The request of the route's `n`th call (its control is the first): default the sample as its caller. */
  base?(ctx: MatrixContext, n: number): Promise<SampleRequest>;
  /** What the route writes: read before each case, and after a refused one (it must not have changed). */
  read(ctx: MatrixContext, req: SampleRequest): Promise<Row | undefined>;
  /** What an accepted case stored, read back from the database; `before` is the read before it. */
  stored(
    ctx: MatrixContext,
    req: SampleRequest,
    answer: unknown,
    before: Row | undefined,
  ): Promise<Row | undefined>;
  fields: DomainField[];
  /** Once the route's cases are done: puts back what the later routes rely on. */
  after?(ctx: MatrixContext): Promise<void>;
}

/** The request with `value` at `at` (a multipart field left out for null). */
export function withValue(req: SampleRequest, at: string, value: unknown): SampleRequest {
  const path = at.split('.');
  if (path[0] === 'form') {
    const fields = { ...req.form!.fields };
    if (value === null || value === undefined) delete fields[path[1]];
    else fields[path[1]] = String(value);
    return { ...req, form: { ...req.form!, fields } };
  }
  const body = structuredClone((req.body ?? {}) as Record<string, unknown>);
  let target: Record<string, unknown> = body;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[path[path.length - 1]] = value;
  return { ...req, body };
}

const one = async (ctx: MatrixContext, sql: string, params: unknown[] = []) =>
  (await ctx.db.query(sql, params)).rows[0] as Row | undefined;
/** A timestamp's day in Sydney (the business's days), 'YYYY-MM-DD', with ' BC' before year 1. */
const dayOf = (column: string, zone = "AT TIME ZONE 'Australia/Sydney'") =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE to_char(${column} ${zone}, 'YYYY-MM-DD') ||
     CASE WHEN extract(year FROM ${column} ${zone}) < 1 THEN ' BC' ELSE '' END END`;
/** Rows of a table (a part of it): their count and newest writing transaction, so any write shows. */
const written = (ctx: MatrixContext, from: string, params: unknown[] = []) =>
  one(
    ctx,
    `SELECT count(*)::int AS n, coalesce(max(x.xmin::text::bigint), 0)::text AS x FROM ${from}`,
    params,
  );
const number = (rule: NumberRule, column: string) => (row: Row, sent: unknown) =>
  numberVerdict(rule, row[column], sent);

const sample = (id: string) => ROUTE_SAMPLES[id]!;
const answerOf = (answer: unknown) => answer as Record<string, Record<string, unknown> | undefined>;

/** How each field of the Market tab is kept: prices and values never negative, no fall past 100%, counts whole. */
const MARKET: Record<MarketDataField, [string, NumberRule]> = {
  ask: ['ask', { min: 0, places: 4, blank: 'null' }],
  bid: ['bid', { min: 0, places: 4, blank: 'null' }],
  last: ['last', { min: 0, places: 4, blank: 'null' }],
  movement: ['movement', { places: 4, blank: 'null' }],
  movementPercent: ['movement_percent', { min: -100, places: 4, blank: 'null' }],
  open: ['open', { min: 0, places: 4, blank: 'null' }],
  high: ['high', { min: 0, places: 4, blank: 'null' }],
  low: ['low', { min: 0, places: 4, blank: 'null' }],
  volume: ['volume', { min: 0, whole: true, blank: 'null' }],
  sharesOnIssue: ['shares_on_issue', { min: 0, whole: true, blank: 'null' }],
  marketCap: ['market_cap', { min: 0, places: 2, blank: 'null' }],
};

/** Of NUMBERS, one of each kind for the Market tab's eleven fields (a sign, a fraction, the extremes, text). */
const MARKET_NUMBERS = NUMBERS.filter((n) => ![-0.01, 0, '-5'].includes(n as number | string));

/** A stock of the domain walk's own (created once): its saves change nothing another sample reads. */
async function walkStock(ctx: MatrixContext): Promise<Stock> {
  if (!ctx.state.domainStock) {
    const saved = (await ctx.adminPost('/api/admin/stocks', {
      ticker: `DS${ctx.run}`,
      companyName: 'Domain Save',
    })) as { stock: Stock };
    ctx.state.domainStock = saved.stock;
  }
  return ctx.state.domainStock as Stock;
}

const stockRow = (ctx: MatrixContext, id: string) =>
  one(ctx, `SELECT *, ${dayOf('billing_date')} AS billing_day FROM stocks.stocks WHERE id = $1`, [id]);
const combinedOf = (stockId: string) =>
  `(SELECT s.ticker || ':' || s.exchange FROM stocks.stocks s WHERE s.id = ${stockId})`;

export const DOMAIN_ROUTES: Readonly<Record<string, DomainRoute>> = {
  'users.save': {
    // A new user each call (a username is taken once), holding a role on stock A.
    base: async (ctx, n) => ({
      params: { id: 'new' },
      body: {
        username: `dom-${ctx.run.toLowerCase()}-${n}`,
        password: 'Matrix-Users-Pass-2026',
        permissions: [{ combinedTicker: ctx.A.combinedTicker, roles: ['ViewConfig'] }],
      },
    }),
    read: (ctx) => written(ctx, `users.users x`),
    stored: (ctx, _req, answer) =>
      one(
        ctx,
        `SELECT u.username, coalesce((SELECT json_agg(json_build_object('stock', ${combinedOf('r.stock_id')},
           'roles', r.roles)) FROM users.user_stock_roles r WHERE r.user_id = u.id), '[]') AS permissions
         FROM users.users u WHERE u.id = $1`,
        [(answer as { id?: string }).id],
      ),
    fields: [
      {
        at: 'permissions.0.combinedTicker',
        values: (ctx) => tickerReferences(ctx.A),
        verdict: (row, sent) => {
          const held = row.permissions as Array<{ stock: string }>;
          return held.length === 1
            ? referenceVerdict(held[0].stock, sent)
            : `${show(sent)} stored as roles on ${held.length} stocks`;
        },
      },
      {
        at: 'permissions.0.roles',
        values: (_ctx, l) => [
          ['Admin'],
          ['SuperAdmin'],
          ['ViewConfig', 'ViewConfig'],
          longList('ViewConfig', l.jsonMaxBytes),
        ],
        verdict: (row, sent) => {
          const roles = (row.permissions as Array<{ roles: string[] }>).flatMap((p) => p.roles);
          const unknown = roles.filter((r) => !(STOCK_ROLES as readonly string[]).includes(r));
          if (unknown.length)
            return `${show(sent)} stored the stock roles ${show(unknown)}, none of the seven`;
          return new Set(roles).size === roles.length ? undefined : `${show(sent)} stored a role twice`;
        },
      },
      {
        at: 'permissions',
        values: (ctx, l) => [
          longList({ combinedTicker: ctx.A.combinedTicker, roles: ['ViewConfig'] }, l.jsonMaxBytes),
        ],
        verdict: (row, sent) => {
          const held = row.permissions as unknown[];
          return held.length === 1
            ? undefined
            : `${show(sent)} stored ${held.length} permission rows for one stock`;
        },
      },
      { at: 'username', values: () => TEXTS, verdict: (row, sent) => textVerdict(true, row.username, sent) },
    ],
  },

  'stocks.save': {
    base: async (ctx) => ({ body: { id: (await walkStock(ctx)).id, companyName: 'Domain Save' } }),
    read: (ctx, req) => stockRow(ctx, (req.body as { id: string }).id),
    stored: (ctx, req) => stockRow(ctx, (req.body as { id: string }).id),
    fields: [
      {
        at: 'ticker',
        values: (ctx) => tickerForms(`DS${ctx.run}`),
        verdict: (row, sent) => tickerVerdict(row.ticker, sent),
      },
      {
        at: 'announcementStartYear',
        values: () => YEARS,
        verdict: number({ min: REAL_YEARS.from, whole: true, blank: 'refused' }, 'announcement_start_year'),
      },
      {
        at: 'billingDate',
        values: () => DATES,
        verdict: (row, sent, before) => dateVerdict('kept', row.billing_day, sent, before?.billing_day),
      },
      {
        at: 'companyName',
        values: () => TEXTS,
        verdict: (row, sent) => textVerdict(false, row.company_name, sent),
      },
      {
        at: 'confirmationEmail',
        values: (ctx) => emailForms(`confirm-${ctx.run.toLowerCase()}`),
        verdict: (row, sent) => emailVerdict({ list: true, blank: true }, row.confirmation_email, sent),
      },
    ],
  },

  'stocks.changeTicker': {
    // The stock as it is now (the walk's sample renamed it already), to a new ticker each call.
    base: async (ctx, n) => {
      const row = (await stockRow(ctx, ctx.tickerStock.id))!;
      return { body: { exchange: row.exchange, ticker: row.ticker, newTicker: `DC${ctx.run}${n}` } };
    },
    read: (ctx) => stockRow(ctx, ctx.tickerStock.id),
    stored: (ctx) => stockRow(ctx, ctx.tickerStock.id),
    fields: [
      {
        at: 'newTicker',
        values: (ctx) => tickerForms(`DT${ctx.run}`),
        verdict: (row, sent) => tickerVerdict(row.ticker, sent),
      },
    ],
  },

  'stocks.saveNote': {
    read: (ctx) => written(ctx, 'stocks.notes x'),
    stored: (ctx, _req, answer) =>
      one(ctx, `SELECT n.details, ${combinedOf('n.stock_id')} AS stock FROM stocks.notes n WHERE n.id = $1`, [
        answerOf(answer).note?.id,
      ]),
    fields: [
      {
        at: 'ticker',
        values: (ctx) => tickerReferences(ctx.A),
        verdict: (row, sent) => referenceVerdict(row.stock, sent),
      },
      { at: 'details', values: () => TEXTS, verdict: (row, sent) => textVerdict(false, row.details, sent) },
    ],
  },

  'stocks.submitOrder': {
    // Spec section 5: only presence is checked, no format: what is given is stored as given.
    read: (ctx) => written(ctx, 'stocks.service_orders x'),
    stored: (ctx, _req, answer) =>
      one(ctx, `SELECT * FROM stocks.service_orders WHERE id = $1`, [(answer as { id?: string }).id]),
    fields: [
      {
        // A ticker is kept upper-cased (spec section 2, the Config tab), whatever else it holds.
        at: 'ticker',
        values: (ctx) => someTickerForms(`DQ${ctx.run}`),
        verdict: (row, sent) =>
          textVerdict(true, row.ticker, typeof sent === 'string' ? sent.toUpperCase() : sent),
      },
      {
        at: 'companyName',
        values: () => TEXTS,
        verdict: (row, sent) => textVerdict(true, row.company_name, sent),
      },
    ],
  },

  'stocks.createStockFromServiceOrder': {
    // An order is made into a stock once: a call after one that did so makes a new order (the sample's
    // prepare) first.
    base: async (ctx, n) => {
      const created = await one(ctx, `SELECT stock_id FROM stocks.service_orders WHERE id = $1`, [
        ctx.state.serviceOrderId,
      ]);
      if (created?.stock_id) await sample('stocks.createStockFromServiceOrder').prepare!(ctx);
      const req = await sample('stocks.createStockFromServiceOrder').request(ctx, 'admin');
      return withValue(req, 'ticker', `DM${ctx.run}${n}`);
    },
    read: (ctx, req) =>
      one(
        ctx,
        `SELECT (SELECT count(*)::int FROM stocks.stocks) AS stocks,
                (SELECT stock_id FROM stocks.service_orders WHERE id = $1) AS stock`,
        [(req.body as { serviceOrderId: string }).serviceOrderId],
      ),
    stored: (ctx, req) =>
      one(
        ctx,
        `SELECT ${combinedOf('o.stock_id')} AS stock, (SELECT s.ticker FROM stocks.stocks s WHERE s.id = o.stock_id) AS ticker
                FROM stocks.service_orders o WHERE o.id = $1`,
        [(req.body as { serviceOrderId: string }).serviceOrderId],
      ),
    fields: [
      {
        at: 'ticker',
        values: (ctx) => someTickerForms(`DO${ctx.run}`),
        verdict: (row, sent) => tickerVerdict(row.ticker, sent),
      },
    ],
  },

  'stocks.saveOptionGroup': {
    // A new group each call (a group's name is taken once).
    base: async (ctx, n) =>
      withValue(
        await sample('stocks.saveOptionGroup').request(ctx, 'admin'),
        'name',
        `Domain group ${ctx.run} ${n}`,
      ),
    read: (ctx) =>
      one(
        ctx,
        `SELECT (SELECT count(*)::int FROM stocks.service_option_groups) AS groups,
                (SELECT count(*)::int FROM stocks.service_options) AS options`,
      ),
    stored: (ctx, _req, answer) =>
      one(
        ctx,
        `SELECT g.name, o.price_cents, o.line_items FROM stocks.service_option_groups g
           JOIN stocks.service_options o ON o.group_id = g.id WHERE g.id = $1 ORDER BY o.position LIMIT 1`,
        [answerOf(answer).group?.id],
      ),
    fields: [
      {
        // Spec section 9: prices in AUD, no decimals.
        at: 'options.0.price',
        values: () => NUMBERS,
        verdict: (row, sent) =>
          numberVerdict({ min: 0, whole: true, blank: 'refused' }, Number(row.price_cents) / 100, sent),
      },
      {
        at: 'options.0.lineItems',
        values: (_ctx, l) => [longList('Hosting', l.jsonMaxBytes), ['', '   '], ['x'.repeat(5_000)]],
        verdict: (row, sent) => {
          const meant = (sent as string[]).map((s) => s.trim()).filter(Boolean);
          return JSON.stringify(row.line_items) === JSON.stringify(meant)
            ? undefined
            : `${show(sent)} stored as ${show(row.line_items)}`;
        },
      },
      { at: 'name', values: () => TEXTS, verdict: (row, sent) => textVerdict(true, row.name, sent) },
    ],
  },

  'announcements.save': {
    read: (ctx) => written(ctx, 'announcements.announcements x WHERE x.stock_id = $1', [ctx.A.id]),
    stored: (ctx, _req, answer) =>
      one(
        ctx,
        `SELECT headline, ${dayOf('released_at')} AS day, thumbnail_page_num, video_url
           FROM announcements.announcements WHERE send_guid = $1`,
        [answerOf(answer).announcement?.sendGuid],
      ),
    fields: [
      { at: 'form.date', values: () => DATES, verdict: (row, sent) => dateVerdict('refused', row.day, sent) },
      {
        at: 'form.thumbnailPageNum',
        values: () => WHOLE_NUMBERS,
        verdict: number({ min: 1, whole: true, blank: 'null' }, 'thumbnail_page_num'),
      },
      {
        at: 'form.headline',
        values: () => TEXTS,
        verdict: (row, sent) => textVerdict(true, row.headline, sent),
      },
      { at: 'form.videoUrl', values: () => LINKS, verdict: (row, sent) => linkVerdict(row.video_url, sent) },
    ],
  },

  'announcements.saveSystemSettings': {
    read: (ctx) =>
      one(
        ctx,
        `SELECT *, ${dayOf('disable_poll_until')} AS disable_poll_day FROM announcements.system_settings`,
      ),
    stored: (ctx) =>
      one(
        ctx,
        `SELECT *, ${dayOf('disable_poll_until')} AS disable_poll_day FROM announcements.system_settings`,
      ),
    fields: [
      {
        at: 'hourlyAutoSendLimit',
        values: () => WHOLE_NUMBERS,
        verdict: number({ min: 0, whole: true, blank: 'zero' }, 'hourly_auto_send_limit'),
      },
      {
        at: 'dailyAutoSendLimit',
        values: () => WHOLE_NUMBERS,
        verdict: number({ min: 0, whole: true, blank: 'zero' }, 'daily_auto_send_limit'),
      },
      {
        at: 'disablePollUntil',
        values: () => DATES,
        verdict: (row, sent) => dateVerdict('null', row.disable_poll_day, sent),
      },
      {
        at: 'errorEmail',
        values: (ctx) => emailForms(`errors-${ctx.run.toLowerCase()}`),
        verdict: (row, sent) => emailVerdict({ list: false, blank: true }, row.error_email, sent),
      },
    ],
  },

  'announcements.respondToComment': {
    read: (ctx) =>
      one(ctx, `SELECT response, is_public, response_version FROM announcements.comments WHERE guid = $1`, [
        ctx.commentA,
      ]),
    stored: (ctx) => one(ctx, `SELECT response FROM announcements.comments WHERE guid = $1`, [ctx.commentA]),
    fields: [
      {
        // A blank response takes the response back (none is shown).
        at: 'comment',
        values: () => TEXTS,
        verdict: (row, sent) =>
          typeof sent === 'string' && !sent.trim()
            ? row.response === null || row.response === ''
              ? undefined
              : `a blank response stored as ${show(row.response)}`
            : textVerdict(false, row.response, sent),
      },
    ],
  },

  'announcements.widgetPostComment': {
    read: (ctx) => written(ctx, 'announcements.comments x WHERE x.stock_id = $1', [ctx.A.id]),
    stored: (ctx, _req, answer) =>
      one(ctx, `SELECT name, email, comment FROM announcements.comments WHERE guid = $1`, [
        (answer as { guid?: string }).guid,
      ]),
    fields: [
      { at: 'name', values: () => TEXTS, verdict: (row, sent) => textVerdict(true, row.name, sent) },
      {
        at: 'email',
        values: (ctx) => emailForms(`commenter-${ctx.run.toLowerCase()}`),
        verdict: (row, sent) => emailVerdict({ list: false, blank: false }, row.email, sent),
      },
      { at: 'comment', values: () => TEXTS, verdict: (row, sent) => textVerdict(true, row.comment, sent) },
    ],
  },

  'emailMarketing.saveSettings': {
    read: (ctx) => one(ctx, `SELECT * FROM email_marketing.settings WHERE stock_id = $1`, [ctx.A.id]),
    stored: (ctx) => one(ctx, `SELECT * FROM email_marketing.settings WHERE stock_id = $1`, [ctx.A.id]),
    fields: [
      {
        at: 'Settings.testEmailAddresses',
        values: (ctx) => emailForms(`tests-${ctx.run.toLowerCase()}`),
        verdict: (row, sent) => emailVerdict({ list: true, blank: true }, row.test_email_addresses, sent),
      },
    ],
  },

  'emailMarketing.widgetSubscribe': {
    read: (ctx) => written(ctx, 'email_marketing.subscribers x WHERE x.stock_id = $1', [ctx.A.id]),
    // The subscription is recorded after the reply (issue 34: the same time for every address): waited for
    // as the address's row written after the read before the case (a new one, or a pending one renewed).
    stored: (ctx, req, _answer, before) => {
      const email = String((req.body as { email: unknown }).email).trim();
      return until(
        () =>
          one(
            ctx,
            `SELECT email FROM email_marketing.subscribers
              WHERE stock_id = $1 AND lower(email) = lower($2) AND xmin::text::bigint > $3::bigint`,
            [ctx.A.id, email, before?.x ?? '0'],
          ),
        (row) => !!row,
        `the subscriber ${email} recorded`,
      );
    },
    fields: [
      {
        at: 'email',
        values: (ctx) => emailForms(`subscriber-${ctx.run.toLowerCase()}`),
        verdict: (row, sent) => emailVerdict({ list: false, blank: false }, row.email, sent),
      },
    ],
  },

  'invoicing.saveInvoiceData': {
    read: (ctx) => written(ctx, 'invoicing.assignments x'),
    // Every invoice the stock is given is one the accounting system has.
    stored: (ctx) =>
      one(
        ctx,
        `SELECT coalesce(json_agg(a.invoice_id) FILTER (WHERE i.invoice_id IS NULL), '[]') AS unknown
           FROM invoicing.assignments a LEFT JOIN invoicing.invoices i ON i.invoice_id = a.invoice_id
          WHERE a.stock_id = $1`,
        [ctx.A.id],
      ),
    fields: [
      {
        at: 'invoices',
        values: (_ctx, l) => [longList('Z1', l.jsonMaxBytes), ['no-such-invoice']],
        verdict: (row, sent) => {
          const unknown = row.unknown as string[];
          return unknown.length
            ? `${show(sent)} assigned ${unknown.length} invoices the accounting system does not have (${show(unknown)})`
            : undefined;
        },
      },
    ],
    after: async (ctx) => {
      await ctx.adminPost('/api/admin/assignAccountingInvoices', {
        items: [{ invoiceId: ctx.state.invoiceOfA as string, ticker: ctx.A.combinedTicker }],
      });
    },
  },

  'invoicing.assignInvoices': {
    read: (ctx) => written(ctx, 'invoicing.assignments x'),
    stored: (ctx) =>
      one(
        ctx,
        `SELECT ${combinedOf('a.stock_id')} AS stock, a.ignored FROM invoicing.assignments a WHERE a.invoice_id = $1`,
        [ctx.state.invoiceOfA],
      ),
    fields: [
      {
        at: 'items.0.ticker',
        values: (ctx) => tickerReferences(ctx.A),
        verdict: (row, sent) => referenceVerdict(row.stock, sent),
      },
      {
        at: 'items',
        values: (ctx, l) => [
          longList(
            { invoiceId: ctx.state.invoiceOfA as string, ticker: ctx.A.combinedTicker },
            l.jsonMaxBytes,
          ),
        ],
        verdict: (row, _sent, _before, ctx) => referenceVerdict(row.stock, ctx.A.combinedTicker),
      },
    ],
    after: async (ctx) => {
      await ctx.adminPost('/api/admin/assignAccountingInvoices', {
        items: [{ invoiceId: ctx.state.invoiceOfA as string, ticker: ctx.A.combinedTicker }],
      });
    },
  },

  'invoicing.createRepeatingInvoice': {
    read: (ctx) =>
      one(
        ctx,
        `SELECT (SELECT count(*)::int FROM invoicing.repeating_invoices) AS n,
                (SELECT repeating_invoice_id FROM invoicing.stock_billing WHERE stock_id = $1) AS chosen`,
        [ctx.A.id],
      ),
    stored: (ctx, _req, answer) =>
      one(ctx, `SELECT subtotal_cents FROM invoicing.repeating_invoices WHERE id = $1`, [
        answerOf(answer).repeatingInvoice?.id,
      ]),
    fields: [
      {
        // Dollars excluding GST, kept to the cent; an invoice of nothing is no invoice.
        at: 'amount',
        values: () => NUMBERS,
        verdict: (row, sent) =>
          numberVerdict(
            { min: 0, aboveMin: true, places: 2, blank: 'refused' },
            Number(row.subtotal_cents) / 100,
            sent,
          ),
      },
    ],
  },

  'reports.saveMarketData': {
    read: (ctx) => one(ctx, `SELECT * FROM reports.quotes WHERE stock_id = $1`, [ctx.A.id]),
    stored: (ctx) => one(ctx, `SELECT * FROM reports.quotes WHERE stock_id = $1`, [ctx.A.id]),
    fields: MARKET_DATA_FIELDS.map((field) => ({
      at: field,
      values: () => MARKET_NUMBERS,
      verdict: number(MARKET[field][1], MARKET[field][0]),
    })),
  },

  'reports.generateReport': {
    read: (ctx) => written(ctx, 'reports.reports x'),
    stored: (ctx, _req, answer) =>
      one(
        ctx,
        `SELECT ticker, ${dayOf('start_date', '')} AS start_day FROM reports.reports WHERE guid = $1`,
        [answerOf(answer).report?.guid],
      ),
    fields: [
      {
        at: 'form.StartDate',
        values: () => DATES,
        verdict: (row, sent) => dateVerdict('default', row.start_day, sent),
      },
      {
        at: 'form.Ticker',
        values: (ctx) => tickerReferences(ctx.A),
        verdict: (row, sent) => referenceVerdict(row.ticker, sent),
      },
    ],
  },

  'reports.publicGenerateReport': {
    read: (ctx) => written(ctx, 'reports.reports x'),
    stored: (ctx, _req, answer) =>
      one(ctx, `SELECT ${dayOf('start_date', '')} AS start_day FROM reports.reports WHERE guid = $1`, [
        answerOf(answer).report?.guid,
      ]),
    fields: [
      {
        at: 'StartDate',
        values: () => DATES,
        verdict: (row, sent) => dateVerdict('default', row.start_day, sent),
      },
    ],
  },
};
