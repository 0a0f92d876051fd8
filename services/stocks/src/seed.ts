import 'reflect-metadata';
import {
  combinedTickerOf,
  EDITABLE_STOCK_FIELDS,
  EditableStockField,
  sendFlagsOf,
  StockUpsertedEventSchema,
  Topics,
} from '@irp/proto';
import { createLogger, OutboxRelay, runMain } from '@irp/platform';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { stocksService } from './app.module';
import { DEMO_ADMIN, DEMO_STOCKS } from './demo-stocks';
import { NotesService } from './notes/notes.service';
import { ServiceOptionGroups } from './orders/option-groups';
import { ServiceOrdersRepository } from './orders/service-orders.repository';
import { SubmitServiceOrder } from './orders/submit-service-order';
import { StockEntity } from './stocks/stock.entity';
import {
  creationChanges,
  defaultSettings,
  pickSettings,
  StockSettings,
  toStock,
  withIsinCheckDigit,
} from './stocks/stock-rules';
import { ArchiveStock } from './stocks/archive-stock';
import { SaveStock } from './stocks/save-stock';
import { StockReads } from './stocks/stock-reads';

const log = createLogger('seed');
const DAY_MS = 86_400_000;
const daysAgo = (days: number, from = Date.now()) => new Date(from - days * DAY_MS);

function refuseInProduction(nodeEnv: string | undefined): void {
  if (nodeEnv === 'production') throw new Error('Refusing to seed demo stocks when NODE_ENV=production');
}

/**
 * Creates the demo stocks through the stock use cases (save, archive), so they carry real version history and their
 * `stock.upserted` events, then their notes, widget referers and hits. Idempotent: a demo stock that
 * already exists (by its fixed id, or by ticker and exchange) is left as it is, edits made in the
 * demo included.
 */
export async function createDemoStocks(
  stocks: { reads: StockReads; saving: SaveStock; archiving: ArchiveStock },
  notes: NotesService,
  dataSource: DataSource,
): Promise<string[]> {
  const created: string[] = [];
  for (const demo of DEMO_STOCKS) {
    const combinedTicker = combinedTickerOf(demo.fields.ticker ?? '', demo.fields.exchange ?? 'ASX');
    const exists =
      (demo.id && (await dataSource.getRepository(StockEntity).exists({ where: { id: demo.id } }))) ||
      (await stocks.reads.resolve(combinedTicker)) !== null;
    if (exists) continue;
    const stock = await stocks.saving.create(DEMO_ADMIN, demo.fields, {
      id: demo.id,
      now: daysAgo(demo.createdDaysAgo),
    });
    for (const [actor, mode, fields] of demo.edits ?? []) {
      await stocks.saving.save(
        mode === 'admin'
          ? { actor, mode, id: stock.id, fields }
          : { actor, mode, combinedTicker: stock.combinedTicker, fields },
      );
    }
    if (demo.archived)
      await stocks.archiving.archive({
        actor: DEMO_ADMIN,
        ticker: stock.ticker,
        exchange: stock.exchange,
        archived: true,
      });
    for (const [ago, details] of demo.notes ?? [])
      await notes.add(DEMO_ADMIN, stock.combinedTicker, details, daysAgo(ago));
    for (const [url, count, firstDaysAgo, lastDaysAgo] of demo.referers ?? []) {
      await dataSource.query(
        `INSERT INTO stocks.referers (stock_id, url, count, first, last)
         VALUES ($1, $2, $3, now() - make_interval(days => $4), now() - make_interval(days => $5))
         ON CONFLICT DO NOTHING`,
        [stock.id, url, count, firstDaysAgo, lastDaysAgo],
      );
    }
    if (demo.dailyHits) {
      // A year of daily counters (or since the stock was created), varied but repeatable.
      await dataSource.query(
        `INSERT INTO stocks.api_hits (stock_id, day, count)
         SELECT $1, (now() AT TIME ZONE 'Australia/Sydney')::date - d,
                round($2 * (0.6 + 0.8 * ((d * 37) % 17) / 16.0))
         FROM generate_series(0, $3::int - 1) AS d
         ON CONFLICT DO NOTHING`,
        [stock.id, demo.dailyHits, Math.min(demo.createdDaysAgo, 365)],
      );
    }
    created.push(stock.combinedTicker);
  }
  return created;
}

/**
 * The demo's option group (demo data, named so): the provider's standard option of spec section 9, 1800 a
 * year plus GST, the default option of the group /new-order shows. Staff make real groups on the Orders
 * screen; nothing but this seed (never run in production) creates one.
 */
export const DEMO_OPTION_GROUP = {
  name: 'Standard subscription (demo data)',
  options: [
    {
      name: 'Standard',
      price: 1800,
      lineItems: [
        'ASX announcements and share price widgets for your investor centre',
        'Announcement emails to your subscribers',
        'Interactive announcements with investor comments',
        'Annual subscription, invoiced in advance',
      ],
      isDefault: true,
    },
  ],
};

/** Creates the demo option group (the default) when there is no option group at all; its id, or null. */
export async function createDemoOptionGroup(
  groups: ServiceOptionGroups,
  orders: ServiceOrdersRepository,
): Promise<string | null> {
  if ((await orders.groups()).length > 0) return null;
  const group = await groups.save(DEMO_ADMIN, DEMO_OPTION_GROUP);
  return group.id;
}

/** The demo's pending service orders (the Orders page), placed through the form's use case. */
export const DEMO_SERVICE_ORDERS = [
  {
    companyName: 'Kestrel Copper Limited',
    ticker: 'KCU',
    website: 'https://www.kestrelcopper.example.com.au',
    listingDate: '',
    contactName: 'Priya Raman',
    contactPhone: '+61 8 9322 4410',
    contactEmail: 'priya.raman@kestrelcopper.example.com.au',
    abn: '51 824 753 556',
    address: 'Level 3, 190 St Georges Terrace, Perth WA 6000',
    authorisedBy: 'Priya Raman, Company Secretary',
    confirmationEmail: 'investors@kestrelcopper.example.com.au',
    choice: 'all' as const,
  },
  {
    companyName: 'Harbourline Health Group Ltd',
    ticker: 'HHG',
    website: 'harbourlinehealth.example.com.au',
    listingDate: '2027-02-15',
    contactName: 'Tom Nguyen',
    contactPhone: '02 9251 7730',
    contactEmail: 'tom.nguyen@harbourlinehealth.example.com.au',
    abn: '33 051 775 556',
    address: 'Suite 12.02, 60 Margaret Street, Sydney NSW 2000',
    authorisedBy: 'Tom Nguyen, CFO',
    confirmationEmail: '',
    choice: 'price_sensitive_only' as const,
  },
];

/** Places the demo orders once (none when any order exists), with the default group's options. */
export async function createDemoServiceOrders(
  submitting: SubmitServiceOrder,
  groups: ServiceOptionGroups,
  orders: ServiceOrdersRepository,
): Promise<number> {
  if ((await orders.count()) > 0) return 0;
  const options = await groups.offered('');
  for (const [i, { choice, ...form }] of DEMO_SERVICE_ORDERS.entries())
    await submitting.submit({
      ...form,
      ...sendFlagsOf(choice),
      option: options[i % Math.max(options.length, 1)]?.id ?? null,
    });
  return DEMO_SERVICE_ORDERS.length;
}

// ---------------------------------------------------------------------------------------------------
// Synthetic stocks for benchmarks

/** Column, SQL array type and value of each stored field of a synthetic stock. */
const FIELD_COLUMNS: Record<EditableStockField, [string, string]> = {
  ticker: ['ticker', 'text'],
  exchange: ['exchange', 'text'],
  isin: ['isin', 'text'],
  companyName: ['company_name', 'text'],
  pollAsx: ['poll_asx', 'boolean'],
  sendPriceSensitiveAnnouncements: ['send_price_sensitive_announcements', 'boolean'],
  sendNonPriceSensitiveAnnouncements: ['send_non_price_sensitive_announcements', 'boolean'],
  autoSendAnnouncementEmail: ['auto_send_announcement_email', 'boolean'],
  autoSendNonPriceSensitiveAnnouncements: ['auto_send_non_price_sensitive_announcements', 'boolean'],
  autoSendFilter: ['auto_send_filter', 'text'],
  announcementStartYear: ['announcement_start_year', 'int'],
  confirmationEmail: ['confirmation_email', 'text'],
  moderatorEmail: ['moderator_email', 'text'],
  contactEmail: ['contact_email', 'text'],
  billingDate: ['billing_date', 'timestamptz'],
  websiteUrl: ['website_url', 'text'],
  apiKey: ['api_key', 'text'],
  announcementNotificationEmails: ['announcement_notification_emails', 'text'],
  accountingReference: ['accounting_reference', 'text'],
  subscriptionExpired: ['subscription_expired', 'boolean'],
  companyLogoUrl: ['company_logo_url', 'text'],
  announcementCommentTemplate: ['announcement_comment_template', 'text'],
  disableMarketData: ['disable_market_data', 'boolean'],
};

const SECTORS = ['Resources', 'Energy', 'Holdings', 'Minerals', 'Technologies', 'Health', 'Capital', 'Gold'];
const EXCHANGE_CYCLE = ['ASX', 'ASX', 'ASX', 'ASX', 'ASX', 'ASX', 'ASX', 'LSE', 'FSE', 'OTC'];

/** The i-th synthetic stock: `SYN00001`..., mostly ASX, valid ISINs on LSE and FSE, repeatable values. */
export function syntheticStock(i: number, now = Date.now()): { created: Date; settings: StockSettings } {
  const created = new Date(now - i * 3_600_000);
  const exchange = EXCHANGE_CYCLE[i % EXCHANGE_CYCLE.length];
  const n = String(i);
  const isin =
    exchange === 'LSE'
      ? withIsinCheckDigit(`GB00${n.padStart(7, '0')}`)
      : exchange === 'FSE'
        ? withIsinCheckDigit(`DE000${n.padStart(6, '0')}`)
        : '';
  return {
    created,
    settings: {
      ...defaultSettings(created),
      ticker: `SYN${n.padStart(5, '0')}`,
      exchange,
      isin,
      companyName: `Synthetic ${SECTORS[i % SECTORS.length]} ${i} Limited`,
      websiteUrl: `https://www.syn${i}.example.com/investors`,
      confirmationEmail: `ir@syn${i}.example.com`,
      contactEmail: i % 3 === 0 ? `contact@syn${i}.example.com` : '',
      pollAsx: exchange === 'ASX' && i % 3 === 0,
      sendPriceSensitiveAnnouncements: i % 2 === 0,
      sendNonPriceSensitiveAnnouncements: i % 5 === 0,
      autoSendAnnouncementEmail: i % 4 === 0,
      announcementStartYear: 2015 + (i % 10),
      apiKey: i % 4 === 0 ? createHash('md5').update(`synthetic-${i}`).digest('hex') : null,
      subscriptionExpired: i % 50 === 0,
      accountingReference: `SYN-${n.padStart(5, '0')}`,
    },
  };
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Bulk-creates synthetic stocks `SYN00001`..`SYN{n}` (for benchmarks: 2,000 stocks) with plain bulk
 * INSERTs: per batch one INSERT of the stocks, one of their version-1 history rows and one of their
 * `stock.upserted` outbox rows, in one transaction, so other services' projections see them too.
 * Idempotent (existing tickers are skipped); works on any DataSource connected to the database. Returns
 * how many stocks it created.
 */
export async function seedSyntheticStocks(
  dataSource: DataSource,
  n: number,
  batchSize = 500,
): Promise<number> {
  refuseInProduction(process.env.NODE_ENV);
  const now = Date.now();
  const fields = [...EDITABLE_STOCK_FIELDS];
  const columns = [...fields.map((f) => FIELD_COLUMNS[f][0]), 'created', 'updated_at', 'version'];
  const types = [...fields.map((f) => FIELD_COLUMNS[f][1]), 'timestamptz', 'timestamptz', 'int'];
  const insertStocks = `
    INSERT INTO stocks.stocks (${columns.join(', ')})
    SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
    ON CONFLICT DO NOTHING
    RETURNING *`;
  let inserted = 0;
  for (let from = 1; from <= n; from += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, n - from + 1) }, (_, k) =>
      syntheticStock(from + k, now),
    );
    const params = [
      ...fields.map((f) => batch.map((b) => b.settings[f])),
      batch.map((b) => b.created),
      batch.map((b) => b.created),
      batch.map(() => 1),
    ];
    inserted += await dataSource.transaction(async (m) => {
      const rows: Array<Record<string, unknown>> = await m.query(insertStocks, params);
      if (!rows.length) return 0;
      const entities = rows.map((row) => {
        const e = new StockEntity();
        for (const [k, v] of Object.entries(row)) (e as unknown as Record<string, unknown>)[camel(k)] = v;
        return e;
      });
      await m.query(
        `INSERT INTO stocks.stock_versions (stock_id, version_id, changed_on, changed_by, changes)
         SELECT id, 1, created, 'seed', changes FROM unnest($1::uuid[], $2::timestamptz[], $3::jsonb[])
           AS t(id, created, changes)`,
        [
          entities.map((e) => e.id),
          entities.map((e) => e.created),
          entities.map((e) => JSON.stringify(creationChanges(pickSettings(e)))),
        ],
      );
      await m.query(
        `INSERT INTO stocks.outbox (topic, key, payload)
         SELECT $1, key, payload FROM unnest($2::text[], $3::jsonb[]) AS t(key, payload)`,
        [
          Topics.StockUpserted,
          entities.map((e) => e.id),
          entities.map((e) => JSON.stringify(StockUpsertedEventSchema.parse(toStock(e)))),
        ],
      );
      return rows.length;
    });
  }
  return inserted;
}

// ---------------------------------------------------------------------------------------------------
// CLI: node services/stocks/dist/seed.js [--synthetic=N]

/**
 * Seeds the demo stocks (and, with `synthetic`, that many synthetic ones) and publishes their events
 * before returning. Refused in production: nothing seeds real data.
 */
export async function seedDemoStocks(
  env: NodeJS.ProcessEnv = process.env,
  options: { synthetic?: number } = {},
): Promise<void> {
  refuseInProduction(stocksService.loadConfig(env).NODE_ENV);
  const app = await stocksService.context(env);
  try {
    const dataSource = app.get(DataSource);
    const created = await createDemoStocks(
      { reads: app.get(StockReads), saving: app.get(SaveStock), archiving: app.get(ArchiveStock) },
      app.get(NotesService),
      dataSource,
    );
    const optionGroup = await createDemoOptionGroup(
      app.get(ServiceOptionGroups),
      app.get(ServiceOrdersRepository),
    );
    const serviceOrders = await createDemoServiceOrders(
      app.get(SubmitServiceOrder),
      app.get(ServiceOptionGroups),
      app.get(ServiceOrdersRepository),
    );
    const synthetic = options.synthetic ? await seedSyntheticStocks(dataSource, options.synthetic) : 0;
    await drainOutbox(dataSource, app.get(OutboxRelay));
    log.info({ created, optionGroup, serviceOrders, synthetic }, 'demo stocks seeded');
  } finally {
    await app.close();
  }
}

/**
 * Publishes every pending outbox row before the seed exits. publishBatch() answers 0 while another relay
 * (this app's background loop, or a running stocks service) holds the schema's lock, so "0" alone does
 * not mean done: wait until nothing is pending.
 */
async function drainOutbox(dataSource: DataSource, relay: OutboxRelay, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await relay.publishBatch(500)) > 0) continue;
    const [{ pending }] = await dataSource.query(
      `SELECT count(*)::int AS pending FROM stocks.outbox WHERE published_at IS NULL`,
    );
    if (!pending) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`stock events still unpublished after ${timeoutMs / 1000} s`);
}

export function parseSeedArgs(argv: readonly string[]): { synthetic?: number } {
  const flag = argv.find((a) => a.startsWith('--synthetic='));
  if (!flag) return {};
  const synthetic = Number(flag.slice('--synthetic='.length));
  if (!Number.isInteger(synthetic) || synthetic < 0)
    throw new Error(`--synthetic needs a whole number, not ${flag}`);
  return { synthetic };
}

if (require.main === module)
  runMain(() =>
    seedDemoStocks(process.env, parseSeedArgs(process.argv.slice(2))).then(() => process.exit(0)),
  );
