// Issue 35's other long lists, timed in Chromium as the dashboard and the subscriber list are
// (stocks-dashboard.bench.mjs calls measureLongLists after the subscribers): each list's rows are seeded by
// SQL into the bench's database, the stack's gateway answers the page, and inside the page
// (bench/list-timing.mjs) render after data = the list request's responseEnd to the frame after the rows'
// text appeared, keystroke = one filter key's keydown to the frame after the filtered text (where the list
// has a filter). A warm-up run, then BENCH_BROWSER_RUNS runs, each on a quiet stack (untilQuiet).
//
//  - announcements: BENCH_ANNOUNCEMENTS (5,000) of BHP:ASX over 20 years (a busy ASX stock lodges ~250 a
//    year), the staff stock page's Announcements tab (GET /api/stock/BHP:ASX carries the newest
//    ANNOUNCEMENT_PAGE_SIZE; the tab loads the older pages after it): render after the stock page's data, and
//    when every page shows;
//  - invoices: BENCH_INVOICES (20,000) live invoices no stock has, the accounting page's Unassigned Invoices
//    (/accounting-page, GET /api/admin/accountingInvoices carries the oldest ACCOUNTING_INVOICE_PAGE_SIZE; the
//    page loads the later pages after it): the invoice list that grows without bound (a stock's own
//    Invoices tab lists ~12 a year): render after the page's data, and when every page shows;
//  - referers: /referers lists every stock with its referers (GET /api/admin/referers): its rows are
//    stocks, so it is timed at BENCH_REFERER_STOCKS (20,000) stocks, each with 1-3 referring pages;
//  - reports: BENCH_REPORTS (2,000) trading-activity reports of BHP:ASX, the staff stock page's Reports tab
//    (GET /api/admin/reports?ticker=BHP:ASX);
//  - users: BENCH_USERS (5,000) users, /users (GET /api/users/).
//
// What no service caches: each of these reads its rows from its own tables on every request (announcements'
// ReadAnnouncementsService.list, invoicing's ReadAccountingPage, stocks' ReferersService.all, reports'
// ReportsRepository.list, users' UsersRepository.list), so rows inserted by SQL are read as the service's
// own. The stocks added for the referers go through the stocks service's own seed (seed.js --synthetic, the
// dashboard's path: its outbox tells the other services' projections).
/* global document */
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { listSummary as summary, sleep, untilQuiet } from './lib.mjs';
import { changeMatching, forgetChanges, keyAt, responseEnd } from './list-timing.mjs';
import { figure } from './figures.mjs';
import { logWhere, whereTimeGoes } from './page-profile.mjs';

// proto's dist (the bench runs on the built stack): how many announcements the stock page holds.
const { ACCOUNTING_INVOICE_PAGE_SIZE, ANNOUNCEMENT_PAGE_SIZE } = createRequire(import.meta.url)('@irp/proto');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
const COUNTS = {
  announcements: Number(process.env.BENCH_ANNOUNCEMENTS ?? 5_000),
  invoices: Number(process.env.BENCH_INVOICES ?? 20_000),
  refererStocks: Number(process.env.BENCH_REFERER_STOCKS ?? 20_000),
  reports: Number(process.env.BENCH_REPORTS ?? 2_000),
  users: Number(process.env.BENCH_USERS ?? 5_000),
};
const GOALS = { renderMs: 300, keystrokeMs: 16 };
// Windows profiled after the timed runs, per list: its loads and its keystrokes (0: none).
const PROFILED_WINDOWS = Number(process.env.BENCH_KEY_PROFILES ?? 10);
// BENCH_LISTS=referers,users: only those lists (all by default).
const ONLY = process.env.BENCH_LISTS?.split(',').filter(Boolean);
const REPORTS_LISTED = 500;

/** The elements whose text says a list's rows arrived (listTimingScript observes only listed selectors). */
const ANNOUNCEMENT_ROWS = 'table[aria-label="Announcements"] tbody';
// The first line's link (its select of every stock is a sibling, kept out of the observed text).
const INVOICE_LINE = '[data-testid="unassigned-invoice"] > div';
const REFERERS_SHOWING = '[data-testid="referers-showing"]';
const REPORT_ROWS = 'table[aria-label="Reports"] tbody';
const USERS_SHOWING = '[data-testid="users-showing"]';
export const LONG_LIST_SELECTORS = [
  ANNOUNCEMENT_ROWS,
  INVOICE_LINE,
  REFERERS_SHOWING,
  REPORT_ROWS,
  USERS_SHOWING,
];

const met = (value, goal) => (value < goal ? 'met' : 'not met');

/** A stock's id in a service's own table (its projection, or the stocks service's). */
async function stockIdIn(pg, table, ticker = 'BHP', exchange = 'ASX') {
  const { rows } = await pg.query(`SELECT id FROM ${table} WHERE ticker = $1 AND exchange = $2`, [
    ticker,
    exchange,
  ]);
  if (!rows[0]) throw new Error(`${ticker}:${exchange} is not in ${table}`);
  return rows[0].id;
}

const HEADLINES = [
  'Quarterly Activities Report',
  'Half Year Financial Report',
  "Change of Director's Interest Notice",
  'Becoming a substantial holder',
  'Operational Review',
  'Investor Presentation',
  'Dividend/Distribution',
  'Annual Report to shareholders',
  'Notice of Annual General Meeting',
  'Exploration Update',
  'Production Report',
  'Update - Notification of buy-back',
  'Cleansing Notice',
  'Application for quotation of securities',
  'Results of Meeting',
];
const sqlArray = (words) => `ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(', ')}]`;

/** `n` announcements of BHP over 20 years, newest now; a seventh price-sensitive, a few deleted. */
async function seedAnnouncements(pg, n) {
  const stockId = await stockIdIn(pg, 'announcements.stocks');
  await pg.query(
    `INSERT INTO announcements.announcements (stock_id, source_key, headline, released_at, price_sensitive,
            remote_path, file_status, num_comments, hits, deleted_on, origin, created_at, updated_at)
     SELECT $1, 'bench-' || g, h.headline || ' - ' || to_char(t.at, 'FMDD Month YYYY'), t.at, g % 7 = 0,
            'https://www.asx.com.au/asxpdf/' || to_char(t.at, 'YYYYMMDD') || '/pdf/bench' || g || '.pdf',
            'none', (g * 13) % 5, (g * 7919) % 2000, CASE WHEN g % 97 = 0 THEN t.at + interval '1 day' END,
            CASE WHEN t.at > now() - interval '1 year' THEN 'poll' ELSE 'initial-poll' END, t.at, t.at
       FROM generate_series(1, $2::int) g,
            LATERAL (SELECT now() - ((g - 1) * 7305.0 / $2) * interval '1 day' - (g % 9) * interval '1 hour'
                       AS at) t,
            LATERAL (SELECT (${sqlArray(HEADLINES)})[1 + g % ${HEADLINES.length}] AS headline) h
     ON CONFLICT DO NOTHING`,
    [stockId, n],
  );
  const { rows } = await pg.query(
    'SELECT count(*)::int AS n FROM announcements.announcements WHERE stock_id = $1',
    [stockId],
  );
  return rows[0].n;
}

const COMPANIES = [
  'Harbour',
  'Ridge',
  'Southern Cross',
  'Goldfields',
  'Pilbara',
  'Coral',
  'Eastern',
  'Summit',
];

/** `n` live invoices with no reference and no assignment (so no stock has them), dated over 20 years. */
async function seedInvoices(pg, n) {
  await pg.query(
    `INSERT INTO invoicing.invoices (invoice_id, invoice_number, status, reference, contact_id, contact_name,
            date, due_date, total_cents, amount_due_cents, updated_utc)
     SELECT md5('bench-invoice-' || g)::uuid::text, 'INV-' || lpad(g::text, 6, '0'),
            CASE WHEN g % 5 = 0 THEN 'AUTHORISED' ELSE 'PAID' END, '',
            md5('bench-contact-' || g % 2500)::uuid::text,
            (${sqlArray(COMPANIES)})[1 + g % ${COMPANIES.length}] || ' Resources ' || g % 2500 || ' Pty Ltd',
            x.day, x.day + 30, x.cents, CASE WHEN g % 5 = 0 THEN x.cents ELSE 0 END, now()
       FROM generate_series(1, $1::int) g,
            LATERAL (SELECT (current_date - (g * 7305 / $1))::date AS day,
                            (50000 + (g * 7919) % 950000)::bigint AS cents) x
     ON CONFLICT DO NOTHING`,
    [n],
  );
  const { rows } = await pg.query(
    `SELECT count(*)::int AS n FROM invoicing.invoices i
      WHERE i.invoice_number LIKE 'INV-%' AND btrim(i.reference) = ''
        AND NOT EXISTS (SELECT 1 FROM invoicing.assignments a WHERE a.invoice_id = i.invoice_id)`,
  );
  return rows[0].n;
}

/**
 * At least `n` stocks: the stocks service's own synthetic seed (the dashboard's path, whose outbox tells the
 * other services' projections), a no-op when the dashboard's scales made them. Then the stack is left to
 * project them and run their first polls before anything is timed (minutes at 20,000: up to 10).
 */
async function ensureStocks(pg, env, n) {
  const before = (await pg.query('SELECT count(*)::int AS n FROM stocks.stocks')).rows[0].n;
  if (before >= n) return;
  const seeded = spawnSync(process.execPath, ['services/stocks/dist/seed.js', `--synthetic=${n}`], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', KAFKAJS_NO_PARTITIONER_WARNING: '1' },
    stdio: 'inherit',
  });
  if (seeded.status !== 0) throw new Error('seeding the synthetic stocks failed');
  await untilQuiet(ENV_FILE, { maxMs: 600_000 });
}

/** Each stock with 1-3 referring pages and its widget hits. */
async function seedReferers(pg) {
  await pg.query(
    `INSERT INTO stocks.referers (stock_id, url, count, first, last)
     SELECT s.id,
            'https://www.' || lower(s.ticker) || '-investors.example.com.au/' ||
              (ARRAY['announcements', 'investor-centre', 'shareholder-information'])[k],
            1 + (s.n * 31 + k * 17) % 5000, now() - (s.n % 700 + 30) * interval '1 day',
            now() - (s.n % 30 + k) * interval '1 hour'
       FROM (SELECT id, ticker, row_number() OVER (ORDER BY ticker, exchange) AS n FROM stocks.stocks) s,
            generate_series(1, 3) k
      WHERE k <= 1 + s.n % 3
     ON CONFLICT DO NOTHING`,
  );
  await pg.query(
    `INSERT INTO stocks.api_hits (stock_id, day, count)
     SELECT stock_id, current_date, sum(count) FROM stocks.referers GROUP BY stock_id
     ON CONFLICT DO NOTHING`,
  );
  return (await pg.query('SELECT count(*)::int AS n FROM stocks.stocks')).rows[0].n;
}

/** `n` reports of BHP, each a month's range, made over 20 years; some with peers. */
async function seedReports(pg, n) {
  const stockId = await stockIdIn(pg, 'reports.stocks');
  await pg.query(
    `INSERT INTO reports.reports (guid, stock_id, ticker, peers, start_date, end_date, comparative,
            price_overlay, allow_search, created, created_by, view)
     SELECT md5('bench-report-' || g), $1, 'BHP:ASX',
            CASE g % 3 WHEN 0 THEN ARRAY['RIO:ASX', 'FMG:ASX'] WHEN 1 THEN ARRAY['S32:ASX'] ELSE ARRAY[]::text[] END,
            r.start, (r.start + interval '1 month' - interval '1 day')::date, g % 3 = 0, g % 4 = 0, g % 5 = 0,
            r.start + interval '1 month' + (g % 20) * interval '1 hour', 'admin', '{}'::jsonb
       FROM generate_series(1, $2::int) g,
            LATERAL (SELECT (current_date - interval '1 month' - ((g - 1) * 7305 / $2) * interval '1 day')::date
                       AS start) r
     ON CONFLICT DO NOTHING`,
    [stockId, n],
  );
  const { rows } = await pg.query('SELECT count(*)::int AS n FROM reports.reports WHERE stock_id = $1', [
    stockId,
  ]);
  return rows[0].n;
}

const FIRST = ['olivia', 'jack', 'charlotte', 'william', 'amelia', 'noah', 'isla', 'oliver', 'mia', 'leo'];
const LAST = [
  'smith',
  'jones',
  'williams',
  'brown',
  'wilson',
  'taylor',
  'nguyen',
  'johnson',
  'martin',
  'white',
];

/** `n` users named first.last + a number (distinct), with the demo admin's password hash and no roles. */
async function seedUsers(pg, n) {
  await pg.query(
    `INSERT INTO users.users (username, password_hash, roles)
     SELECT (${sqlArray(FIRST)})[1 + g % ${FIRST.length}] || '.' ||
              (${sqlArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] || g || '@bench.example',
            (SELECT password_hash FROM users.users WHERE username = 'admin'), '{}'
       FROM generate_series(1, $1::int) g
     ON CONFLICT DO NOTHING`,
    [n],
  );
  return (await pg.query('SELECT count(*)::int AS n FROM users.users')).rows[0].n;
}

/** The list's API through the gateway: 6 GETs (the first untimed), or why it failed. */
async function askGateway(base, cookie, api, check) {
  const ms = [];
  for (let i = 0; i < 6; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(`${base}${api}`, { headers: { cookie } });
    if (res.status !== 200)
      return { failed: `GET ${api} answered ${res.status}: ${(await res.text()).slice(0, 200)}` };
    const problem = check(await res.json());
    if (problem) return { failed: `GET ${api}: ${problem}` };
    if (i > 0) ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return summary(ms);
}

/**
 * One list in Chromium: a warm-up run and BROWSER_RUNS runs of loading `route` (render after the data of
 * the request whose URL contains `api`) and, with `filter`, one key in its input.
 */
async function timeList(page, { route, api, selector, arrived, filter, whole }) {
  const render = [];
  const keystroke = [];
  const wholeMs = [];
  let domRows = 0;
  for (let run = 0; run < BROWSER_RUNS + 1; run++) {
    await page.goto(route, { waitUntil: 'commit' });
    const shown = await changeMatching(page, selector, arrived, 120_000);
    // A paged list's first page: its later pages may follow on the same path.
    const dataAt = await responseEnd(page, api, { first: Boolean(whole) });
    if (dataAt === null) throw new Error(`no request to ${api} on ${route}`);
    domRows = await page.evaluate(
      (sel) => document.querySelectorAll(sel).length,
      '[data-index], [aria-rowindex]:not([aria-rowindex="1"])',
    );
    if (run > 0) render.push(shown.frameAt - dataAt);
    // A paged list: when its last page shows, after the first page's data.
    if (whole) {
      const handle = await page.waitForFunction(whole.shown, whole.arg, { timeout: 300_000, polling: 'raf' });
      if (run > 0) wholeMs.push((await handle.jsonValue()) - dataAt);
    }
    if (filter) {
      const input = page.getByPlaceholder(filter.placeholder);
      await input.click();
      await sleep(300);
      await forgetChanges(page);
      await page.keyboard.press(filter.key);
      const filtered = await changeMatching(page, selector, filter.filtered);
      const pressed = await keyAt(page);
      await input.fill('');
      if (run > 0) keystroke.push(filtered.frameAt - pressed);
    }
  }
  // Where the time goes (bench/page-profile.mjs), after the timed runs: loads, then keystrokes.
  const load_where = await whereTimeGoes(page, {
    windows: PROFILED_WINDOWS,
    act: async () => {
      await page.goto(route, { waitUntil: 'commit' });
      await changeMatching(page, selector, arrived, 120_000);
    },
  }).catch((error) => ({ failed: error.message }));
  const input = filter && page.getByPlaceholder(filter.placeholder);
  const keystroke_where =
    filter &&
    (await whereTimeGoes(page, {
      windows: PROFILED_WINDOWS,
      prepare: async () => {
        await input.click();
        await sleep(300);
        await forgetChanges(page);
      },
      act: async () => {
        await page.keyboard.press(filter.key);
        await changeMatching(page, selector, filter.filtered);
      },
      reset: () => input.fill(''),
    }).catch((error) => ({ failed: error.message })));
  return {
    rows_in_dom: domRows,
    render_after_data_ms: summary(render),
    ...(whole ? { whole_list_after_data_ms: summary(wholeMs) } : {}),
    ...(filter ? { keystroke_ms: summary(keystroke) } : {}),
    load_where,
    ...(filter ? { keystroke_where } : {}),
  };
}

const showing = (total) => new RegExp(`^Showing ${total} of ${total}$`);
const filteredOf = (total) => new RegExp(`^Showing (?!${total} of)\\d+ of ${total}$`);

/**
 * Seeds and times each long list (see the header). `page` is the bench's page (cookies set, the init script
 * observing LONG_LIST_SELECTORS), `pg` a pool on the bench's database, `env` the infrastructure's env.
 * Returns the results by list and their figures.
 */
export async function measureLongLists({ page, pg, base, cookies, env }) {
  const cookie = cookies.join('; ');
  const lists = [
    {
      name: 'announcements',
      what: 'announcements of BHP:ASX, Announcements tab',
      seed: () => seedAnnouncements(pg, COUNTS.announcements),
      // The stock page holds the newest page; the tab loads the older ones after it (ANNOUNCEMENT_PAGE_SIZE).
      api: '/api/stock/BHP:ASX',
      check: (body, n) =>
        body.announcements?.length === Math.min(n, ANNOUNCEMENT_PAGE_SIZE) &&
        n > ANNOUNCEMENT_PAGE_SIZE === Boolean(body.announcementsNext)
          ? null
          : `${body.announcements?.length ?? 'no'} announcements, next ${body.announcementsNext} (${body.unavailable?.join(', ') || 'none unavailable'})`,
      route: '/stocks/BHP:ASX/announcements',
      request: '/api/stock/',
      selector: ANNOUNCEMENT_ROWS,
      arrived: () => /\d{4}/,
      // Every page shown: the table counts them all (aria-rowcount, with its header row) and nothing loads.
      whole: (n) => ({
        arg: n + 1,
        shown: (rowCount) =>
          document.querySelector('table[aria-label="Announcements"]')?.getAttribute('aria-rowcount') ===
            String(rowCount) && !document.body.textContent.includes('Loading older announcements')
            ? performance.now()
            : null,
      }),
    },
    {
      name: 'invoices',
      what: 'unassigned invoices, /accounting-page',
      seed: () => seedInvoices(pg, COUNTS.invoices),
      // The page holds the oldest page of each list; the screen loads the later ones after it.
      api: '/api/admin/accountingInvoices',
      check: (body, n) =>
        body.invoices?.length === ACCOUNTING_INVOICE_PAGE_SIZE && Boolean(body.invoicesNext)
          ? null
          : `${body.invoices?.length ?? 'no'} invoices of ${n}, next ${body.invoicesNext}`,
      route: '/accounting-page',
      request: '/api/admin/accountingInvoices',
      selector: INVOICE_LINE,
      arrived: () => /\((Un)?paid\)/i,
      // Every page shown: the list counts at least the seeded lines (aria-setsize) and nothing loads.
      whole: (n) => ({
        arg: n,
        shown: (lines) =>
          Number(
            document
              .querySelector('[data-testid="unassigned-invoice"]')
              ?.parentElement?.getAttribute('aria-setsize'),
          ) >= lines && !document.body.textContent.includes('Loading more invoices')
            ? performance.now()
            : null,
      }),
    },
    {
      name: 'referers',
      what: 'stocks with their referers, /referers',
      seed: () => seedReferers(pg),
      api: '/api/admin/referers',
      check: (body, n) => (body.length === n ? null : `${body.length} stocks`),
      route: '/referers',
      request: '/api/admin/referers',
      selector: REFERERS_SHOWING,
      arrived: showing,
      filter: (n) => ({ placeholder: 'Ticker or website', key: '7', filtered: filteredOf(n) }),
    },
    {
      name: 'reports',
      what: 'reports of BHP:ASX, Reports tab',
      seed: () => seedReports(pg, COUNTS.reports),
      api: '/api/admin/reports?ticker=BHP:ASX',
      // The reports service lists a stock's newest 500 (ReportsRepository.list's LIMIT): the page shows those.
      check: (body, n) =>
        body.length === Math.min(n, REPORTS_LISTED) ? null : `${body.length} of ${n} reports`,
      route: '/stocks/BHP:ASX/reports',
      request: '/api/admin/reports',
      selector: REPORT_ROWS,
      arrived: () => / to \d{4}-\d{2}-\d{2}/,
    },
    {
      name: 'users',
      what: 'users, /users',
      seed: () => seedUsers(pg, COUNTS.users),
      api: '/api/users/',
      check: (body, n) => (body.length === n ? null : `${body.length} users`),
      route: '/users',
      request: '/api/users/',
      selector: USERS_SHOWING,
      arrived: showing,
      filter: (n) => ({ placeholder: 'Username', key: '7', filtered: filteredOf(n) }),
    },
  ];
  const results = {};
  const figures = [];
  const B = 'stocks-dashboard';
  // The referers' stocks first: their projection is the long wait, and would otherwise run beside the timing.
  if (!ONLY || ONLY.includes('referers')) await ensureStocks(pg, env, COUNTS.refererStocks);
  for (const list of lists.filter((l) => !ONLY || ONLY.includes(l.name))) {
    const rows = await list.seed();
    await untilQuiet(ENV_FILE);
    const api_ms = await askGateway(base, cookie, list.api, (body) => list.check(body, rows));
    // A list the gateway does not give whole is not timed in the page: its reason is the result.
    const data = api_ms.failed ? `not measured: ${api_ms.failed}` : 'the gateway';
    const ui = api_ms.failed
      ? null
      : await timeList(page, {
          route: `${base}${list.route}`,
          api: list.request,
          selector: list.selector,
          arrived: list.arrived(rows),
          filter: list.filter?.(rows),
          whole: list.whole?.(rows),
        });
    // The machine's load beside the figures: a browser figure taken on a busy machine is that machine's.
    const load = os.loadavg().map((x) => +x.toFixed(2));
    results[list.name] = {
      rows,
      what: list.what,
      api: list.api,
      api_ms,
      data,
      load_average: load,
      chromium: ui,
    };
    const r = ui?.render_after_data_ms;
    const k = ui?.keystroke_ms;
    const w = ui?.whole_list_after_data_ms;
    console.log(
      `${rows} ${list.what}: GET ${api_ms.failed ? `failed (${data})` : `p50 ${api_ms.p50} ms`}${
        ui
          ? `; Chromium render after data p50 ${r.p50} ms (max ${r.max}; goal < ${GOALS.renderMs}: ${met(r.p50, GOALS.renderMs)})${
              w ? `, every page shown p50 ${w.p50} ms after the first's data` : ''
            }${
              k
                ? `, keystroke p50 ${k.p50} ms (max ${k.max}; goal < ${GOALS.keystrokeMs}: ${met(k.p50, GOALS.keystrokeMs)})`
                : ''
            }, ${ui.rows_in_dom} rows in the DOM; load average ${load[0]}`
          : ''
      }`,
    );
    if (!ui) continue;
    for (const [what, where] of [
      ['load', ui.load_where],
      ['keystroke', ui.keystroke_where],
    ])
      if (where?.failed) console.log(`  ${what}: not profiled: ${where.failed}`);
      else if (where) logWhere(`${list.name} ${what}`, where);
    figures.push(
      figure(B, `${rows} ${list.name}: render after data p50`, r.p50, 'ms', {
        goal: { max: GOALS.renderMs },
      }),
    );
    if (w) figures.push(figure(B, `${rows} ${list.name}: every page shown after data p50`, w.p50, 'ms'));
    if (k)
      figures.push(
        figure(B, `${rows} ${list.name}: filter keystroke p50`, k.p50, 'ms', {
          goal: { max: GOALS.keystrokeMs },
        }),
      );
  }
  return { results, figures };
}
