import type { Tx } from '@irp/platform';
import { DISPLAY_TIME_ZONE, type ChartDataRow, type MarketData, type MarketDataField } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataSource, QueryRunner } from 'typeorm';
import type { BrokerEntity } from './broker.entity';
import type { DailyPriceEntity } from './daily-price.entity';
import type { ApiBar } from './market-data-client';
import type { GapKind, MarketGap, MarketGapEntity } from './market-gap.entity';
import { TradeToCopy, tradeCopyLines } from './market-rules';
import type { QuoteEntity, QuoteSource } from './quote.entity';
import type { TradeDayEntity } from './trade-day.entity';

/** A quote to write: the fields given (others stay) and where they came from. */
export type QuoteWrite = Pick<QuoteEntity, 'stockId' | 'source'> & {
  fields: Partial<Record<MarketDataField, number | null>>;
};

const QUOTE_COLUMNS: Record<MarketDataField, string> = {
  ask: 'ask',
  bid: 'bid',
  last: 'last',
  movement: 'movement',
  movementPercent: 'movement_percent',
  open: 'open',
  high: 'high',
  low: 'low',
  volume: 'volume',
  sharesOnIssue: 'shares_on_issue',
  marketCap: 'market_cap',
};

/**
 * The market data tables (quotes, daily prices, trades and their sums per stock-day, loaded days, gaps,
 * brokers). Trades are bulk loaded: one transaction per stock-day deletes the day's rows and sums and COPYs
 * the new rows in, sums them (so a re-run replaces the day, never doubles it) and marks the day loaded,
 * clearing its gap. Rows are typed from the entities: numeric and bigint columns are cast to float8 and days
 * to text, as the entities read them.
 */
@Injectable()
export class MarketRepository {
  constructor(private readonly dataSource: DataSource) {}

  private q(tx?: Tx) {
    return tx ?? this.dataSource.manager;
  }

  async quote(stockId: string): Promise<MarketData | null> {
    const [row] = await this.dataSource.query<Array<Omit<QuoteEntity, 'stockId' | 'source'>>>(
      `SELECT ask::float8 AS ask, bid::float8 AS bid, last::float8 AS last, movement::float8 AS movement,
              movement_percent::float8 AS "movementPercent", open::float8 AS open, high::float8 AS high,
              low::float8 AS low, volume::float8 AS volume, shares_on_issue::float8 AS "sharesOnIssue",
              market_cap::float8 AS "marketCap", updated
         FROM reports.quotes WHERE stock_id = $1`,
      [stockId],
    );
    return row ? { ...row, updated: row.updated.toISOString() } : null;
  }

  /**
   * Writes the given fields of a stock's quote (others stay), its source, and sets `updated` to now.
   * `keepManualOf` (an automatic sync's write): a manual quote entered on that Sydney day or later is left
   * as it is, in the same statement, so a staff user's edit made while the provider was being read is not
   * overwritten either. What it did: 'saved', 'kept' (such a manual quote stayed), and the source the quote
   * had before (null when it had none).
   */
  async saveQuote(
    row: QuoteWrite,
    tx?: Tx,
    keepManualOf?: string,
  ): Promise<{ outcome: 'saved' | 'kept'; before: QuoteSource | null }> {
    const fields = Object.entries(row.fields).filter(([, v]) => v !== undefined) as Array<
      [MarketDataField, number | null]
    >;
    const columns = fields.map(([f]) => QUOTE_COLUMNS[f]);
    const values = fields.map(([, v]) => v);
    const placeholders = columns.map((_, i) => `$${i + 4}`);
    const updates = columns.map((c) => `${c} = EXCLUDED.${c}`);
    const [result] = await this.q(tx).query<Array<{ saved: boolean; before: QuoteSource | null }>>(
      `WITH before AS (SELECT source, updated FROM reports.quotes WHERE stock_id = $1),
       saved AS (
         INSERT INTO reports.quotes (stock_id, source, updated${columns.map((c) => `, ${c}`).join('')})
         VALUES ($1, $2, now()${placeholders.map((p) => `, ${p}`).join('')})
         ON CONFLICT (stock_id) DO UPDATE SET source = EXCLUDED.source, updated = now()${updates.map((u) => `, ${u}`).join('')}
         WHERE $3::date IS NULL OR reports.quotes.source <> 'manual'
            OR (reports.quotes.updated AT TIME ZONE '${DISPLAY_TIME_ZONE}')::date < $3::date
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM saved) AS saved, (SELECT source FROM before) AS before`,
      [row.stockId, row.source, keepManualOf ?? null, ...values],
    );
    return { outcome: result!.saved ? 'saved' : 'kept', before: result!.before ?? null };
  }

  /**
   * The stocks among `stockIds` whose quote is a manual one entered on the Sydney day `day` or later (what
   * an automatic sync leaves alone, so does not ask the provider for).
   */
  async manualQuotesSince(stockIds: string[], day: string): Promise<Set<string>> {
    if (!stockIds.length) return new Set();
    const rows = await this.dataSource.query<Array<Pick<QuoteEntity, 'stockId'>>>(
      `SELECT stock_id AS "stockId" FROM reports.quotes
       WHERE stock_id = ANY($1) AND source = 'manual' AND (updated AT TIME ZONE '${DISPLAY_TIME_ZONE}')::date >= $2::date`,
      [stockIds, day],
    );
    return new Set(rows.map((r) => r.stockId));
  }

  async chartData(stockId: string): Promise<ChartDataRow[]> {
    const rows = await this.dataSource.query<
      Array<Pick<DailyPriceEntity, 'day' | 'open' | 'high' | 'low' | 'close' | 'volume'>>
    >(
      `SELECT day::text AS day, open::float8 AS open, high::float8 AS high, low::float8 AS low,
              close::float8 AS close, volume::float8 AS volume
         FROM reports.daily_prices WHERE stock_id = $1 ORDER BY day DESC`,
      [stockId],
    );
    return rows.map(({ day, ...bar }) => ({ date: day, ...bar }));
  }

  /** Upserts daily bars; the stock's row count after. */
  async saveDailyPrices(stockId: string, bars: ApiBar[]): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      for (let i = 0; i < bars.length; i += 500) {
        const batch = bars.slice(i, i + 500);
        const params: unknown[] = [stockId];
        const tuples = batch.map((b) => {
          params.push(b.date, b.open, b.high, b.low, b.close, Math.round(b.volume));
          const n = params.length;
          return `($1, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
        });
        await tx.query(
          `INSERT INTO reports.daily_prices (stock_id, day, open, high, low, close, volume) VALUES ${tuples.join(', ')}
           ON CONFLICT (stock_id, day) DO UPDATE SET open = EXCLUDED.open, high = EXCLUDED.high, low = EXCLUDED.low,
             close = EXCLUDED.close, volume = EXCLUDED.volume`,
          params,
        );
      }
      const [{ count }] = await tx.query<[{ count: number }]>(
        `SELECT count(*)::int AS count FROM reports.daily_prices WHERE stock_id = $1`,
        [stockId],
      );
      return count;
    });
  }

  /** The days of these stocks that are loaded, as `${stockId}:${day}`. */
  async loadedDays(stockIds: string[], from: string, to: string): Promise<Set<string>> {
    const rows = await this.dataSource.query<Array<Pick<TradeDayEntity, 'stockId' | 'tradeDay'>>>(
      `SELECT stock_id AS "stockId", trade_day::text AS "tradeDay"
         FROM reports.trade_days WHERE stock_id = ANY($1) AND trade_day BETWEEN $2 AND $3`,
      [stockIds, from, to],
    );
    return new Set(rows.map((r) => `${r.stockId}:${r.tradeDay}`));
  }

  /**
   * Replaces the trades of one stock-day with `trades` (COPY, one transaction), and its sums (`day_stats`,
   * `broker_days`, which the reports read instead of the trades), and marks the day loaded with its trade
   * count; its gap, if any, is cleared. Re-running a day gives the same rows.
   */
  async replaceDay(stockId: string, day: string, trades: TradeToCopy[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      for (const table of ['trades', 'day_stats', 'broker_days'])
        await runner.query(`DELETE FROM reports.${table} WHERE stock_id = $1 AND trade_day = $2`, [
          stockId,
          day,
        ]);
      if (trades.length) {
        const client = (await runner.connect()) as PoolClient;
        const copy = client.query(
          copyFrom(
            `COPY reports.trades (stock_id, trade_day, seq, traded_at, price_e4, volume, buyer_broker, seller_broker, conditions) FROM STDIN`,
          ),
        );
        await pipeline(Readable.from(tradeCopyLines(stockId, day, trades)), copy);
        await this.sumDay(runner, stockId, day);
      }
      await runner.query(
        `INSERT INTO reports.trade_days (stock_id, trade_day, trades) VALUES ($1, $2, $3)
         ON CONFLICT (stock_id, trade_day) DO UPDATE SET trades = EXCLUDED.trades, loaded_at = now()`,
        [stockId, day, trades.length],
      );
      await runner.query(
        `DELETE FROM reports.market_gaps WHERE stock_id = $1 AND day = $2 AND kind = 'trades'`,
        [stockId, day],
      );
      await runner.commitTransaction();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Sums the day's trades just copied (a day of a busy stock is a few thousand rows): the day's figures,
   * its open and close being the prices of its first and last seq (read through the primary key), and each
   * broker's buy and sell sides, summed by grouping sets in one pass. Only called for a day with trades: an
   * aggregate without GROUP BY gives a row even over none.
   */
  private async sumDay(runner: QueryRunner, stockId: string, day: string): Promise<void> {
    await runner.query(
      `INSERT INTO reports.day_stats
       SELECT $1::uuid, $2::date, count(*), sum(volume), sum(price_e4 * volume), max(price_e4), min(price_e4),
              (SELECT price_e4 FROM reports.trades WHERE stock_id = $1 AND trade_day = $2 ORDER BY seq LIMIT 1),
              (SELECT price_e4 FROM reports.trades WHERE stock_id = $1 AND trade_day = $2 ORDER BY seq DESC LIMIT 1)
         FROM reports.trades
        WHERE stock_id = $1 AND trade_day = $2`,
      [stockId, day],
    );
    await runner.query(
      `INSERT INTO reports.broker_days
       WITH sides AS (
         SELECT GROUPING(buyer_broker) = 0 AS is_buy, coalesce(buyer_broker, seller_broker) AS broker,
                count(*) AS trades, sum(volume) AS volume, sum(price_e4 * volume) AS value_e4
           FROM reports.trades
          WHERE stock_id = $1 AND trade_day = $2
          GROUP BY GROUPING SETS ((buyer_broker), (seller_broker))
       )
       SELECT $1::uuid, $2::date, broker,
              coalesce(sum(trades) FILTER (WHERE is_buy), 0), coalesce(sum(volume) FILTER (WHERE is_buy), 0),
              coalesce(sum(value_e4) FILTER (WHERE is_buy), 0),
              coalesce(sum(trades) FILTER (WHERE NOT is_buy), 0), coalesce(sum(volume) FILTER (WHERE NOT is_buy), 0),
              coalesce(sum(value_e4) FILTER (WHERE NOT is_buy), 0)
         FROM sides
        GROUP BY broker`,
      [stockId, day],
    );
  }

  /** Remembers what the provider could not serve; true for each gap not reported yet (to mail once). */
  async recordGaps(gaps: MarketGap[], tx?: Tx): Promise<MarketGap[]> {
    const fresh: MarketGap[] = [];
    for (const g of gaps) {
      const [row] = await this.q(tx).query<[Pick<MarketGapEntity, 'reported'>]>(
        `INSERT INTO reports.market_gaps (stock_id, day, kind, reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT (stock_id, day, kind) DO UPDATE SET reason = EXCLUDED.reason, last_failed_at = now()
         RETURNING reported`,
        [g.stockId, g.day, g.kind, g.reason],
      );
      if (!row.reported) fresh.push(g);
    }
    return fresh;
  }

  async markGapsReported(gaps: MarketGap[], tx?: Tx): Promise<void> {
    for (const g of gaps)
      await this.q(tx).query(
        `UPDATE reports.market_gaps SET reported = true WHERE stock_id = $1 AND day = $2 AND kind = $3`,
        [g.stockId, g.day, g.kind],
      );
  }

  async clearGap(stockId: string, day: string, kind: GapKind): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM reports.market_gaps WHERE stock_id = $1 AND day = $2 AND kind = $3`,
      [stockId, day, kind],
    );
  }

  gaps(stockIds: string[], from: string, to: string, kind: GapKind = 'trades'): Promise<MarketGap[]> {
    return this.dataSource.query<MarketGap[]>(
      `SELECT stock_id AS "stockId", day::text AS day, kind, reason FROM reports.market_gaps
        WHERE stock_id = ANY($1) AND day BETWEEN $2 AND $3 AND kind = $4 ORDER BY day`,
      [stockIds, from, to, kind],
    );
  }

  async brokerCount(): Promise<number> {
    const [{ count }] = await this.dataSource.query<[{ count: number }]>(
      `SELECT count(*)::int AS count FROM reports.brokers`,
    );
    return count;
  }

  async saveBrokers(brokers: Array<Pick<BrokerEntity, 'id' | 'name'>>): Promise<void> {
    if (!brokers.length) return;
    const params: unknown[] = [];
    const tuples = brokers.map((b) => {
      params.push(b.id, b.name);
      return `($${params.length - 1}, $${params.length})`;
    });
    await this.dataSource.query(
      `INSERT INTO reports.brokers (id, name) VALUES ${tuples.join(', ')} ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`,
      params,
    );
  }
}
