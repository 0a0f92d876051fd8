import type { ReportSummary } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AnnouncementEntity } from '../announcements/announcement.entity';
import type { BrokerDayEntity } from '../market/broker-day.entity';
import type { DayStatsEntity } from '../market/day-stats.entity';
import type { BrokerAggregate, DailyNet, DayStats, ReportAnnouncement } from './report-rules';
import type { BrokerShareAnalysis, TopBrokers } from './report-view-rules';
import type { ReportEntity } from './report.entity';

/** A stored report as the public page and a regeneration read it. */
export type StoredReport = Pick<ReportEntity, 'guid' | 'stockId' | 'allowSearch' | 'view' | 'parentGuid'>;

/**
 * The report's figures, summed in SQL over the range's per stock-day sums written with the trades
 * (`day_stats`, `broker_days`: MarketRepository.replaceDay; their `(stock_id, trade_day)` primary keys
 * serve each range scan), and the stored reports. Rows are typed from the entities; the bigint and numeric
 * sums are cast to float8 (the driver reads those types as text) and the days to text, as the entities
 * read them.
 */
@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Per stock, the top `limit` brokers by value traded (bought + sold, ties by broker id), with their buy
   * and sell aggregates, and how many brokers traded it: each broker's sums of the range's days.
   */
  async topBrokers(stockIds: string[], from: string, to: string, limit: number): Promise<TopBrokers> {
    const rows = await this.dataSource.query<
      Array<Pick<BrokerDayEntity, 'stockId'> & Pick<BrokerShareAnalysis, 'brokerCount'> & BrokerAggregate>
    >(
      `WITH per AS (
         SELECT stock_id, broker_id AS broker, sum(buys) AS buys, sum(buy_vol) AS buy_vol,
                sum(buy_value_e4) AS buy_value_e4, sum(sells) AS sells, sum(sell_vol) AS sell_vol,
                sum(sell_value_e4) AS sell_value_e4
           FROM reports.broker_days
          WHERE stock_id = ANY($1) AND trade_day BETWEEN $2 AND $3
          GROUP BY stock_id, broker_id
       ), ranked AS (
         SELECT per.*, row_number() OVER (PARTITION BY stock_id ORDER BY buy_value_e4 + sell_value_e4 DESC, broker) AS rank,
                count(*) OVER (PARTITION BY stock_id) AS broker_count
           FROM per
       )
       SELECT r.stock_id AS "stockId", r.broker_count::int AS "brokerCount", r.broker, b.name,
              r.buys::float8 AS buys, r.buy_vol::float8 AS "buyVol", r.buy_value_e4::float8 AS "buyValueE4",
              r.sells::float8 AS sells, r.sell_vol::float8 AS "sellVol", r.sell_value_e4::float8 AS "sellValueE4"
         FROM ranked r LEFT JOIN reports.brokers b ON b.id = r.broker
        WHERE r.rank <= $4 ORDER BY r.stock_id, r.rank`,
      [stockIds, from, to, limit],
    );
    const out: TopBrokers = new Map();
    for (const { stockId, brokerCount, ...broker } of rows) {
      const entry = out.get(stockId) ?? { brokerCount, brokers: [] };
      entry.brokers.push(broker);
      out.set(stockId, entry);
    }
    return out;
  }

  /** Per stock and trading day with trades: trades, volume, value, high, low, open (first trade) and close (last). */
  dailyStats(stockIds: string[], from: string, to: string): Promise<DayStats[]> {
    return this.dataSource.query<Array<Pick<DayStatsEntity, keyof DayStats>>>(
      `SELECT stock_id AS "stockId", trade_day::text AS "tradeDay", num_trades AS "numTrades",
              volume::float8 AS volume, value_e4::float8 AS "valueE4", high_e4::float8 AS "highE4",
              low_e4::float8 AS "lowE4", open_e4::float8 AS "openE4", close_e4::float8 AS "closeE4"
         FROM reports.day_stats
        WHERE stock_id = ANY($1) AND trade_day BETWEEN $2 AND $3
        ORDER BY stock_id, trade_day`,
      [stockIds, from, to],
    );
  }

  /** Each broker's net volume and value per day of one stock (the pre-release flag's input). */
  dailyNet(stockId: string, from: string, to: string): Promise<DailyNet[]> {
    return this.dataSource.query<DailyNet[]>(
      `SELECT d.trade_day::text AS day, d.broker_id AS broker, b.name,
              (d.buy_vol - d.sell_vol)::float8 AS "netVol",
              (d.buy_value_e4 - d.sell_value_e4)::float8 AS "netValueE4"
         FROM reports.broker_days d
         LEFT JOIN reports.brokers b ON b.id = d.broker_id
        WHERE d.stock_id = $1 AND d.trade_day BETWEEN $2 AND $3`,
      [stockId, from, to],
    );
  }

  /** The stock's announcements released on days from..to (Sydney days), oldest first. */
  async announcements(stockId: string, from: string, to: string): Promise<ReportAnnouncement[]> {
    const rows = await this.dataSource.query<
      Array<Pick<AnnouncementEntity, 'day' | 'releasedAt' | 'headline' | 'priceSensitive'>>
    >(
      `SELECT day::text AS day, released_at AS "releasedAt", headline, price_sensitive AS "priceSensitive"
         FROM reports.announcements
        WHERE stock_id = $1 AND day BETWEEN $2 AND $3 ORDER BY released_at`,
      [stockId, from, to],
    );
    return rows.map(({ releasedAt, ...a }) => ({ ...a, date: releasedAt.toISOString() }));
  }

  /**
   * Stores a report; false (nothing stored) when it is a public regeneration of a parent and range already
   * stored (the unique index `reports_regeneration_range`: two searches at once store one).
   */
  async save(report: ReportEntity): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO reports.reports (guid, stock_id, ticker, peers, start_date, end_date, comparative, price_overlay,
                                    allow_search, created, created_by, view, parent_guid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (parent_guid, start_date, end_date) WHERE parent_guid IS NOT NULL DO NOTHING
       RETURNING guid`,
      [
        report.guid,
        report.stockId,
        report.ticker,
        report.peers,
        report.startDate,
        report.endDate,
        report.comparative,
        report.priceOverlay,
        report.allowSearch,
        report.created,
        report.createdBy,
        JSON.stringify(report.view),
        report.parentGuid,
        report.expiresAt,
      ],
    );
    return rows.length > 0;
  }

  /** A stored report by its guid; a public regeneration past its expiry is gone (pruned soon after). */
  async byGuid(guid: string): Promise<StoredReport | null> {
    const [row] = await this.dataSource.query<StoredReport[]>(
      `SELECT guid, stock_id AS "stockId", allow_search AS "allowSearch", view, parent_guid AS "parentGuid"
         FROM reports.reports WHERE guid = $1 AND (expires_at IS NULL OR expires_at > now())`,
      [guid],
    );
    return row ?? null;
  }

  /** The live public regeneration of `parentGuid` over this range, if one is stored. */
  async regeneration(parentGuid: string, startDate: string, endDate: string): Promise<StoredReport | null> {
    const [row] = await this.dataSource.query<StoredReport[]>(
      `SELECT guid, stock_id AS "stockId", allow_search AS "allowSearch", view, parent_guid AS "parentGuid"
         FROM reports.reports
        WHERE parent_guid = $1 AND start_date = $2 AND end_date = $3 AND expires_at > now()`,
      [parentGuid, startDate, endDate],
    );
    return row ?? null;
  }

  /** How many public regenerations of `parentGuid` are live. */
  async liveRegenerations(parentGuid: string): Promise<number> {
    const [{ n }] = await this.dataSource.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM reports.reports WHERE parent_guid = $1 AND expires_at > now()`,
      [parentGuid],
    );
    return n;
  }

  /** Deletes the public regenerations past their expiry; how many. */
  async pruneExpired(): Promise<number> {
    // Counted in SQL: TypeORM answers a DELETE ... RETURNING as [rows, count], not as rows.
    const [{ n }] = await this.dataSource.query<Array<{ n: number }>>(
      `WITH gone AS (DELETE FROM reports.reports WHERE expires_at <= now() RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    );
    return n;
  }

  async list(stockId: string): Promise<ReportSummary[]> {
    const rows = await this.dataSource.query<
      Array<
        Pick<
          ReportEntity,
          | 'guid'
          | 'created'
          | 'ticker'
          | 'startDate'
          | 'endDate'
          | 'peers'
          | 'comparative'
          | 'priceOverlay'
          | 'allowSearch'
        >
      >
    >(
      `SELECT guid, created, ticker, start_date::text AS "startDate", end_date::text AS "endDate", peers,
              comparative, price_overlay AS "priceOverlay", allow_search AS "allowSearch"
         FROM reports.reports WHERE stock_id = $1 ORDER BY created DESC LIMIT 500`,
      [stockId],
    );
    return rows.map(({ created, comparative, ...r }) => ({
      ...r,
      created: created.toISOString(),
      comparativeTradingActivity: comparative,
    }));
  }
}
