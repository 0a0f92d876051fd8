import { createStockProjectionTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reports tables. Prices of trades are integer hundredths of a cent (`price_e4`: $0.0015 is 15):
 * DESIGN's money rule is integer cents, but ASX prices go below one cent (0.1c steps under 10c), so the
 * unit is finer; values are summed as numeric in SQL and answered in dollars. Quotes and daily bars keep
 * numeric(18,4) dollars as the provider and the Market tab give them.
 *
 * - stocks: the stock projection.
 * - brokers: the provider's broker list (id, name).
 * - trades: every trade with broker ids, one row per provider trade: primary key (stock_id, trade_day, seq)
 *   is the unique key (a re-loaded day replaces its rows in one transaction) and the index the reports'
 *   range scans use (stock, day range). Loaded with COPY.
 * - trade_days: which stock-days are loaded (and how many trades), so the jobs skip them.
 * - market_gaps: a stock-day (or the quotes) the provider could not serve, kept until loaded, so a report
 *   over that day says the data is missing rather than showing zeros.
 * - quotes: the current quote (Market tab); daily_prices: daily OHLCV (Stock Data).
 * - announcements: the announcement days of the announcements service's events (trade analysis, pre-release).
 * - reports: generated reports with their view as computed then, named by an unguessable guid.
 */
export class CreateMarketData1796400000000 implements MigrationInterface {
  name = 'CreateMarketData1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await createStockProjectionTable(q, 'reports', [
      `company_name text NOT NULL DEFAULT ''`,
      'disable_market_data boolean NOT NULL DEFAULT false',
      'archived boolean NOT NULL DEFAULT false',
    ]);
    await q.query(`CREATE INDEX stocks_combined_ticker_idx ON reports.stocks (upper(combined_ticker))`);
    await q.query(`CREATE TABLE reports.brokers (id integer PRIMARY KEY, name text NOT NULL)`);
    await q.query(`
      CREATE TABLE reports.trades (
        stock_id uuid NOT NULL,
        trade_day date NOT NULL,
        seq integer NOT NULL,
        traded_at timestamptz NOT NULL,
        price_e4 bigint NOT NULL CHECK (price_e4 > 0),
        volume bigint NOT NULL CHECK (volume > 0),
        buyer_broker integer NOT NULL,
        seller_broker integer NOT NULL,
        conditions text NOT NULL DEFAULT '',
        PRIMARY KEY (stock_id, trade_day, seq)
      )`);
    await q.query(`
      CREATE TABLE reports.trade_days (
        stock_id uuid NOT NULL,
        trade_day date NOT NULL,
        trades integer NOT NULL,
        loaded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (stock_id, trade_day)
      )`);
    await q.query(`
      CREATE TABLE reports.market_gaps (
        stock_id uuid NOT NULL,
        day date NOT NULL,
        kind text NOT NULL CHECK (kind IN ('trades', 'quote', 'daily')),
        reason text NOT NULL,
        first_failed_at timestamptz NOT NULL DEFAULT now(),
        last_failed_at timestamptz NOT NULL DEFAULT now(),
        reported boolean NOT NULL DEFAULT false,
        PRIMARY KEY (stock_id, day, kind)
      )`);
    await q.query(`
      CREATE TABLE reports.quotes (
        stock_id uuid PRIMARY KEY,
        ask numeric(18,4), bid numeric(18,4), last numeric(18,4),
        movement numeric(18,4), movement_percent numeric(12,4),
        open numeric(18,4), high numeric(18,4), low numeric(18,4),
        volume numeric(20,0), shares_on_issue numeric(20,0), market_cap numeric(22,2),
        source text NOT NULL,
        updated timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE reports.daily_prices (
        stock_id uuid NOT NULL,
        day date NOT NULL,
        open numeric(18,4) NOT NULL, high numeric(18,4) NOT NULL, low numeric(18,4) NOT NULL,
        close numeric(18,4) NOT NULL, volume bigint NOT NULL,
        PRIMARY KEY (stock_id, day)
      )`);
    await q.query(`
      CREATE TABLE reports.announcements (
        id uuid PRIMARY KEY,
        stock_id uuid NOT NULL,
        released_at timestamptz NOT NULL,
        day date NOT NULL,
        headline text NOT NULL,
        price_sensitive boolean NOT NULL
      )`);
    await q.query(`CREATE INDEX announcements_stock_day_idx ON reports.announcements (stock_id, day)`);
    await q.query(`
      CREATE TABLE reports.reports (
        guid text PRIMARY KEY,
        stock_id uuid NOT NULL,
        ticker text NOT NULL,
        peers text[] NOT NULL,
        start_date date NOT NULL,
        end_date date NOT NULL,
        comparative boolean NOT NULL,
        price_overlay boolean NOT NULL,
        allow_search boolean NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        view jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX reports_stock_created_idx ON reports.reports (stock_id, created DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'reports',
      'announcements',
      'daily_prices',
      'quotes',
      'market_gaps',
      'trade_days',
      'trades',
      'brokers',
      'stocks',
    ])
      await q.query(`DROP TABLE IF EXISTS reports.${t}`);
  }
}
