import type { ReportSummary, ReportView } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BrokerAggregate, DailyNet } from './report-rules';

export interface DayStats {
  stockId: string;
  day: string;
  numTrades: number;
  volume: number;
  valueE4: number;
  highE4: number;
  lowE4: number;
  openE4: number;
  closeE4: number;
}

export interface StoredReport {
  guid: string;
  stockId: string;
  allowSearch: boolean;
  view: ReportView;
}

const dayText = (v: unknown): string =>
  v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);

/**
 * The report's figures, summed in SQL over the range's per stock-day sums written with the trades
 * (`day_stats`, `broker_days`: MarketRepository.replaceDay; their `(stock_id, trade_day)` primary keys
 * serve each range scan), and the stored reports.
 */
@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Per stock, the top `limit` brokers by value traded (bought + sold, ties by broker id), with their buy
   * and sell aggregates, and how many brokers traded it: each broker's sums of the range's days.
   */
  async topBrokers(
    stockIds: string[],
    from: string,
    to: string,
    limit: number,
  ): Promise<Map<string, { brokerCount: number; brokers: BrokerAggregate[] }>> {
    const rows: Array<Record<string, string | null>> = await this.dataSource.query(
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
       SELECT r.*, b.name FROM ranked r LEFT JOIN reports.brokers b ON b.id = r.broker
        WHERE r.rank <= $4 ORDER BY r.stock_id, r.rank`,
      [stockIds, from, to, limit],
    );
    const out = new Map<string, { brokerCount: number; brokers: BrokerAggregate[] }>();
    for (const r of rows) {
      const entry = out.get(r.stock_id!) ?? { brokerCount: Number(r.broker_count), brokers: [] };
      entry.brokers.push({
        broker: Number(r.broker),
        name: r.name,
        buys: Number(r.buys),
        buyVol: Number(r.buy_vol),
        buyValueE4: Number(r.buy_value_e4),
        sells: Number(r.sells),
        sellVol: Number(r.sell_vol),
        sellValueE4: Number(r.sell_value_e4),
      });
      out.set(r.stock_id!, entry);
    }
    return out;
  }

  /** Per stock and trading day with trades: trades, volume, value, high, low, open (first trade) and close (last). */
  async dailyStats(stockIds: string[], from: string, to: string): Promise<DayStats[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT stock_id, trade_day, num_trades, volume, value_e4, high_e4, low_e4, open_e4, close_e4
         FROM reports.day_stats
        WHERE stock_id = ANY($1) AND trade_day BETWEEN $2 AND $3
        ORDER BY stock_id, trade_day`,
      [stockIds, from, to],
    );
    return rows.map((r) => ({
      stockId: String(r.stock_id),
      day: dayText(r.trade_day),
      numTrades: Number(r.num_trades),
      volume: Number(r.volume),
      valueE4: Number(r.value_e4),
      highE4: Number(r.high_e4),
      lowE4: Number(r.low_e4),
      openE4: Number(r.open_e4),
      closeE4: Number(r.close_e4),
    }));
  }

  /** Each broker's net volume and value per day of one stock (the pre-release flag's input). */
  async dailyNet(stockId: string, from: string, to: string): Promise<DailyNet[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT d.trade_day, d.broker_id AS broker, b.name,
              d.buy_vol - d.sell_vol AS net_vol, d.buy_value_e4 - d.sell_value_e4 AS net_value_e4
         FROM reports.broker_days d
         LEFT JOIN reports.brokers b ON b.id = d.broker_id
        WHERE d.stock_id = $1 AND d.trade_day BETWEEN $2 AND $3`,
      [stockId, from, to],
    );
    return rows.map((r) => ({
      day: dayText(r.trade_day),
      broker: Number(r.broker),
      name: (r.name as string | null) ?? null,
      netVol: Number(r.net_vol),
      netValueE4: Number(r.net_value_e4),
    }));
  }

  /** The stock's announcements released on days from..to (Sydney days), oldest first. */
  async announcements(
    stockId: string,
    from: string,
    to: string,
  ): Promise<Array<{ day: string; date: string; headline: string; priceSensitive: boolean }>> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT day, released_at, headline, price_sensitive FROM reports.announcements
        WHERE stock_id = $1 AND day BETWEEN $2 AND $3 ORDER BY released_at`,
      [stockId, from, to],
    );
    return rows.map((r) => ({
      day: dayText(r.day),
      date: new Date(r.released_at as string).toISOString(),
      headline: String(r.headline),
      priceSensitive: Boolean(r.price_sensitive),
    }));
  }

  async save(report: {
    guid: string;
    stockId: string;
    ticker: string;
    peers: string[];
    startDate: string;
    endDate: string;
    comparative: boolean;
    priceOverlay: boolean;
    allowSearch: boolean;
    created: string;
    createdBy: string | null;
    view: ReportView;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO reports.reports (guid, stock_id, ticker, peers, start_date, end_date, comparative, price_overlay,
                                    allow_search, created, created_by, view)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
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
      ],
    );
  }

  async byGuid(guid: string): Promise<StoredReport | null> {
    const [row] = await this.dataSource.query(
      `SELECT guid, stock_id, allow_search, view FROM reports.reports WHERE guid = $1`,
      [guid],
    );
    return row
      ? { guid: row.guid, stockId: row.stock_id, allowSearch: row.allow_search, view: row.view as ReportView }
      : null;
  }

  async list(stockId: string): Promise<ReportSummary[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT guid, created, ticker, start_date, end_date, peers, comparative, price_overlay, allow_search
         FROM reports.reports WHERE stock_id = $1 ORDER BY created DESC LIMIT 500`,
      [stockId],
    );
    return rows.map((r) => ({
      guid: String(r.guid),
      created: new Date(r.created as string).toISOString(),
      ticker: String(r.ticker),
      startDate: dayText(r.start_date),
      endDate: dayText(r.end_date),
      peers: r.peers as string[],
      comparativeTradingActivity: Boolean(r.comparative),
      priceOverlay: Boolean(r.price_overlay),
      allowSearch: Boolean(r.allow_search),
    }));
  }
}
