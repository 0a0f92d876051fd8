// Invoicing sync (issue 19): a full read of 10,000 invoices from the accounting system through the
// invoicing service's sync (the adapter on the platform's vendor client keeping 5 at once and 60 a minute,
// the pages stored as it goes), against the accounting stand-in enforcing the same limits. The physical
// limit, measured in the same run: the limits' own bound (the requests the read needs, at most 60 in any
// minute: the last one cannot start before (ceil(requests / 60) - 1) minutes) plus one page's transfer,
// or the raw transfer of every page (plain HTTP from a stand-in with the same data and no limits), which
// ever is longer. Goal: ratio <= 1.1x. Then an incremental sync with nothing changed: goal one request.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as infra from '../deploy/local/infra.mjs';
import { freshDatabase, sleep } from './lib.mjs';
import { figure, writeResult } from './figures.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startAccountingStandIn } = require(path.join(ROOT, 'standins/dist/accounting/accounting-standin.js'));
const { DEMO_ACCOUNTING_CLIENT } = require(path.join(ROOT, 'proto/dist/index.js'));
const { startInvoicingService } = require(path.join(ROOT, 'services/invoicing/dist/main.js'));
const { AccountingSync } = require(path.join(ROOT, 'services/invoicing/dist/invoices/accounting-sync.js'));
const { Pool } = require(require.resolve('pg', { paths: [path.join(ROOT, 'services/platform')] }));

const INVOICES = Number(process.env.BENCH_INVOICES ?? 10_000);
const PER_MINUTE = 60;
const ENV_FILE = path.join(ROOT, '.local', 'bench.env');

/** Token, then every page of /Invoices read one after another over plain HTTP: the transfer floor. */
async function rawRead(standIn) {
  const basic = Buffer.from(`${standIn.client.clientId}:${standIn.client.clientSecret}`).toString('base64');
  const token = await (
    await fetch(`${standIn.url}/connect/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
  ).json();
  const started = performance.now();
  let pages = 0;
  let invoices = 0;
  for (let page = 1; ; page++) {
    const res = await fetch(`${standIn.apiUrl}/Invoices?page=${page}&summaryOnly=true`, {
      headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
    });
    const body = await res.json();
    pages += 1;
    invoices += body.Invoices.length;
    if (body.Invoices.length < 100) break;
  }
  return { ms: performance.now() - started, pages, invoices };
}

const { env } = await infra.up({ envFile: ENV_FILE, database: 'irportal_bench' });
await freshDatabase(env.DATABASE_URL);
const unlimited = await startAccountingStandIn({
  port: 0,
  demo: false,
  limits: { concurrent: 1000, perMinute: 10_000_000, perDay: 100_000_000 },
});
const limited = await startAccountingStandIn({ port: 0, demo: false });
let app;
try {
  unlimited.seedInvoices({ count: INVOICES });
  const raw = await rawRead(unlimited);

  app = await startInvoicingService({
    ...process.env,
    KAFKA_BROKERS: env.KAFKA_BROKERS,
    DATABASE_URL: env.DATABASE_URL,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
    ACCOUNTING_BASE_URL: limited.apiUrl,
    ACCOUNTING_TOKEN_URL: `${limited.url}/connect/token`,
    ACCOUNTING_CLIENT_ID: DEMO_ACCOUNTING_CLIENT.clientId,
    ACCOUNTING_CLIENT_SECRET: DEMO_ACCOUNTING_CLIENT.clientSecret,
    ACCOUNTING_TENANT_ID: DEMO_ACCOUNTING_CLIENT.tenantId,
    ACCOUNTING_SYNC_INTERVAL_MS: '3600000',
  });
  const pg = new Pool({ connectionString: env.DATABASE_URL, max: 2 });
  // The job's first sync at start (an empty organisation: two requests), then a minute for the limits'
  // window to forget it, so the timed read starts with the whole minute's budget.
  for (;;) {
    const { rows } = await pg.query(`SELECT synced_at FROM invoicing.sync_state WHERE id = 'accounting'`);
    if (rows[0]?.synced_at) break;
    await sleep(200);
  }
  await sleep(61_000);
  limited.seedInvoices({ count: INVOICES });
  const sync = app.get(AccountingSync);
  const started = performance.now();
  const full = await sync.sync({ full: true });
  const fullMs = performance.now() - started;
  const { rows } = await pg.query(`SELECT count(*)::int AS n FROM invoicing.invoices`);
  if (rows[0].n !== INVOICES) throw new Error(`stored ${rows[0].n} of ${INVOICES} invoices`);
  const incremental = await sync.sync({ full: false });
  await pg.end();

  const pageMs = raw.ms / raw.pages;
  const windowBoundMs = (Math.ceil(full.requests / PER_MINUTE) - 1) * 60_000 + pageMs;
  const limitMs = Math.max(windowBoundMs, raw.ms);
  const result = {
    at: new Date().toISOString(),
    invoices: INVOICES,
    full_sync: { ms: Math.round(fullMs), pages: full.pages, requests: full.requests },
    raw_transfer_unlimited: { ms: Math.round(raw.ms), pages: raw.pages },
    limits_bound_ms: Math.round(windowBoundMs),
    issue_formula_pages_over_60_per_minute_ms: Math.round((full.pages / PER_MINUTE) * 60_000),
    physical_limit_ms: Math.round(limitMs),
    ratio: +(fullMs / limitMs).toFixed(2),
    goal: 'ratio <= 1.1x; incremental with nothing changed = 1 request',
    goal_met: fullMs / limitMs <= 1.1 && incremental.requests === 1,
    incremental_nothing_changed: { requests: incremental.requests, ms: incremental.ms },
    stand_in_requests: limited.requests('invoices'),
  };
  const B = 'invoicing-sync';
  writeResult(B, result, [
    figure(B, `full sync of ${INVOICES} invoices`, fullMs / 1000, 's', {
      ratio: { value: fullMs / limitMs, better: 'lower' },
    }),
    figure(B, 'full sync ÷ physical limit', fullMs / limitMs, '×', { goal: { max: 1.1 } }),
    figure(B, 'incremental sync, nothing changed', incremental.requests, 'requests', { goal: { max: 1 } }),
  ]);
  console.log(
    `full sync of ${INVOICES} invoices: ${result.full_sync.ms} ms, ${full.pages} pages, ${full.requests} requests`,
  );
  console.log(
    `physical limit ${result.physical_limit_ms} ms (limits' bound ${result.limits_bound_ms} ms, raw transfer ${result.raw_transfer_unlimited.ms} ms); ratio ${result.ratio}x (goal <= 1.1x)`,
  );
  console.log(
    `incremental sync with nothing changed: ${incremental.requests} request(s), ${incremental.ms} ms`,
  );
} finally {
  await app?.close().catch(() => {});
  await Promise.all([limited.close(), unlimited.close()]);
  await infra.down({ envFile: ENV_FILE });
}
