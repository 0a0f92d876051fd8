import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sums of each loaded stock-day, written by `MarketRepository.replaceDay` in the transaction that loads the
 * day's trades, so a report reads a few rows per stock-day instead of every trade (a month of six busy
 * stocks is about 8,000 rows instead of a million; bench/README.md, reports). Values stay exact: sums of
 * `price_e4 * volume` as numeric, as the reports summed them over the trades.
 *
 * - day_stats: per stock-day with trades, its count, volume, value, high, low, and the prices of its first
 *   and last trade by seq (open, close). A loaded day without trades has no row, as it had no group.
 * - broker_days: per stock-day and broker, its buy and sell trades, volume and value (a trade between a
 *   broker and itself counts on both sides, as before).
 *
 * The backfill sums the trades already stored, the same way `replaceDay` sums a day.
 */
export class CreateTradeRollups1796500000000 implements MigrationInterface {
  name = 'CreateTradeRollups1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reports.day_stats (
        stock_id uuid NOT NULL,
        trade_day date NOT NULL,
        num_trades integer NOT NULL,
        volume bigint NOT NULL,
        value_e4 numeric NOT NULL,
        high_e4 bigint NOT NULL,
        low_e4 bigint NOT NULL,
        open_e4 bigint NOT NULL,
        close_e4 bigint NOT NULL,
        PRIMARY KEY (stock_id, trade_day)
      )`);
    await q.query(`
      CREATE TABLE reports.broker_days (
        stock_id uuid NOT NULL,
        trade_day date NOT NULL,
        broker_id integer NOT NULL,
        buys integer NOT NULL,
        buy_vol bigint NOT NULL,
        buy_value_e4 numeric NOT NULL,
        sells integer NOT NULL,
        sell_vol bigint NOT NULL,
        sell_value_e4 numeric NOT NULL,
        PRIMARY KEY (stock_id, trade_day, broker_id)
      )`);
    await q.query(`
      INSERT INTO reports.day_stats
      WITH days AS (
        SELECT stock_id, trade_day, count(*) AS num_trades, sum(volume) AS volume, sum(price_e4 * volume) AS value_e4,
               max(price_e4) AS high_e4, min(price_e4) AS low_e4, min(seq) AS first_seq, max(seq) AS last_seq
          FROM reports.trades
         GROUP BY stock_id, trade_day
      )
      SELECT d.stock_id, d.trade_day, d.num_trades, d.volume, d.value_e4, d.high_e4, d.low_e4, o.price_e4, c.price_e4
        FROM days d
        JOIN reports.trades o ON o.stock_id = d.stock_id AND o.trade_day = d.trade_day AND o.seq = d.first_seq
        JOIN reports.trades c ON c.stock_id = d.stock_id AND c.trade_day = d.trade_day AND c.seq = d.last_seq`);
    await q.query(`
      INSERT INTO reports.broker_days
      WITH sides AS (
        SELECT stock_id, trade_day, GROUPING(buyer_broker) = 0 AS is_buy, coalesce(buyer_broker, seller_broker) AS broker,
               count(*) AS trades, sum(volume) AS volume, sum(price_e4 * volume) AS value_e4
          FROM reports.trades
         GROUP BY GROUPING SETS ((stock_id, trade_day, buyer_broker), (stock_id, trade_day, seller_broker))
      )
      SELECT stock_id, trade_day, broker,
             coalesce(sum(trades) FILTER (WHERE is_buy), 0), coalesce(sum(volume) FILTER (WHERE is_buy), 0),
             coalesce(sum(value_e4) FILTER (WHERE is_buy), 0),
             coalesce(sum(trades) FILTER (WHERE NOT is_buy), 0), coalesce(sum(volume) FILTER (WHERE NOT is_buy), 0),
             coalesce(sum(value_e4) FILTER (WHERE NOT is_buy), 0)
        FROM sides
       GROUP BY stock_id, trade_day, broker`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS reports.broker_days`);
    await q.query(`DROP TABLE IF EXISTS reports.day_stats`);
  }
}
