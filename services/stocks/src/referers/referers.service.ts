import {
  combinedTickerOf,
  ErrorCode,
  MAX_REFERER_URL_LENGTH,
  MAX_REFERERS_PER_STOCK,
  MAX_REFERERS_PER_STOCK_IN_REPORT,
  OTHER_REFERERS,
  Referer,
  StockReferers,
  WidgetStock,
} from '@irp/proto';
import { AppError } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StocksService } from '../stocks/stocks.service';

export const UNKNOWN_API_KEY_MESSAGE = 'Unknown API key';

interface RefererRow {
  stock_id: string;
  url: string;
  /** bigint, which the driver returns as text. */
  count: string;
  first: Date;
  last: Date;
}

const toReferer = (r: RefererRow): Referer => ({
  url: r.url,
  count: Number(r.count),
  first: r.first.toISOString(),
  last: r.last.toISOString(),
});

/**
 * One widget API request in one SQL statement (one round trip, one implicit transaction): find the stock
 * by key, count the hit for today (Sydney), and count the referer (count + 1, last = now, first kept).
 * Data-modifying CTEs run even though the outer query does not read them; with no matching key they
 * insert nothing. Client sites call this on every page view, so it must stay this cheap.
 *
 * A page already recorded is counted on its row. A new page gets a row while the stock has fewer than
 * MAX_REFERERS_PER_STOCK pages, else it is counted under the one OTHER_REFERERS row: the table stays
 * bounded whatever Referer headers callers make up, and the hits stay counted. The count of a stock's
 * pages reads at most that many index entries of the primary key. Two new pages recorded at the same
 * moment may both see room for one more, so a stock can end a row or two over the cap; never more.
 */
const WIDGET_LOOKUP_SQL = `
  WITH s AS (
    SELECT id, ticker, exchange, isin, company_name, website_url, company_logo_url, archived,
      subscription_expired
    FROM stocks.stocks WHERE api_key = $1
  ), hit AS (
    INSERT INTO stocks.api_hits (stock_id, day, count)
    SELECT id, (now() AT TIME ZONE 'Australia/Sydney')::date, 1 FROM s
    ON CONFLICT (stock_id, day) DO UPDATE SET count = stocks.api_hits.count + 1
  ), ref AS (
    INSERT INTO stocks.referers (stock_id, url, count, first, last)
    SELECT s.id,
      CASE
        WHEN EXISTS (SELECT 1 FROM stocks.referers r WHERE r.stock_id = s.id AND r.url = $2::text)
          THEN $2::text
        WHEN (SELECT count(*) FROM (
                SELECT 1 FROM stocks.referers r
                WHERE r.stock_id = s.id AND r.url <> $4::text
                LIMIT $3::int) pages) < $3::int
          THEN $2::text
        ELSE $4::text
      END,
      1, now(), now()
    FROM s WHERE $2::text IS NOT NULL
    ON CONFLICT (stock_id, url) DO UPDATE SET count = stocks.referers.count + 1, last = excluded.last
  )
  SELECT * FROM s`;

/** Where the public widget is embedded (referers) and how often it is called (hits). */
@Injectable()
export class ReferersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stocks: StocksService,
  ) {}

  /**
   * One stock's referers, most recently seen first (every recorded page and the OTHER_REFERERS row, at
   * most MAX_REFERERS_PER_STOCK + 1 rows), and its hits ever.
   */
  async forStock(combinedTicker: string): Promise<StockReferers> {
    const stock = await this.stocks.requireByCombinedTicker(combinedTicker);
    const [referers, hits] = await Promise.all([
      // The cap keeps a stock under MAX_REFERERS_PER_STOCK pages plus OTHER_REFERERS; the LIMIT holds
      // even for rows the cap did not see (concurrent first sightings, rows from before it).
      this.dataSource.query(
        `SELECT stock_id, url, count, first, last FROM stocks.referers WHERE stock_id = $1
         ORDER BY last DESC, url LIMIT $2`,
        [stock.id, MAX_REFERERS_PER_STOCK + 1],
      ) as Promise<RefererRow[]>,
      this.dataSource.query(
        `SELECT COALESCE(sum(count), 0)::bigint AS hits FROM stocks.api_hits WHERE stock_id = $1`,
        [stock.id],
      ) as Promise<Array<{ hits: string }>>,
    ]);
    return {
      ticker: stock.ticker,
      exchange: stock.exchange,
      combinedTicker: combinedTickerOf(stock.ticker, stock.exchange),
      hits: Number(hits[0]?.hits ?? 0),
      referers: referers.map(toReferer),
    };
  }

  /**
   * Every stock (archived too) by ticker, with its hits and its MAX_REFERERS_PER_STOCK_IN_REPORT most
   * recently seen referers (the stock's own report has them all): two queries for any number of stocks,
   * the answer bounded by the number of stocks.
   */
  async all(): Promise<StockReferers[]> {
    const [stocks, referers] = await Promise.all([
      this.dataSource.query(
        `SELECT s.id, s.ticker, s.exchange, COALESCE(h.hits, 0)::bigint AS hits
         FROM stocks.stocks s
         LEFT JOIN (SELECT stock_id, sum(count) AS hits FROM stocks.api_hits GROUP BY stock_id) h
           ON h.stock_id = s.id
         ORDER BY s.ticker, s.exchange`,
      ) as Promise<Array<{ id: string; ticker: string; exchange: string; hits: string }>>,
      this.dataSource.query(
        `SELECT stock_id, url, count, first, last FROM (
           SELECT stock_id, url, count, first, last,
                  row_number() OVER (PARTITION BY stock_id ORDER BY last DESC, url) AS n
           FROM stocks.referers
         ) ranked
         WHERE n <= $1
         ORDER BY last DESC, url`,
        [MAX_REFERERS_PER_STOCK_IN_REPORT],
      ) as Promise<RefererRow[]>,
    ]);
    const byStock = new Map<string, Referer[]>();
    for (const r of referers) {
      const list = byStock.get(r.stock_id);
      if (list) list.push(toReferer(r));
      else byStock.set(r.stock_id, [toReferer(r)]);
    }
    return stocks.map((s) => ({
      ticker: s.ticker,
      exchange: s.exchange,
      combinedTicker: combinedTickerOf(s.ticker, s.exchange),
      hits: Number(s.hits),
      referers: byStock.get(s.id) ?? [],
    }));
  }

  /**
   * The stock of an API key, recording the hit and its referer. Archived and expired-subscription stocks
   * are recorded too (the request was answered, with 404 by the gateway), so staff can see who still
   * calls the API.
   */
  async widgetLookup(
    apiKey: string,
    referer?: string,
  ): Promise<{ stockId: string; archived: boolean; subscriptionExpired: boolean; stock: WidgetStock }> {
    // The gateway sends origin + path already cut; cut here too, as the table's bound must not depend on it.
    const url = referer?.trim().slice(0, MAX_REFERER_URL_LENGTH) || null;
    const rows: Array<{
      id: string;
      ticker: string;
      exchange: string;
      isin: string;
      company_name: string;
      website_url: string;
      company_logo_url: string;
      archived: boolean;
      subscription_expired: boolean;
    }> = await this.dataSource.query(WIDGET_LOOKUP_SQL, [
      apiKey.trim(),
      url,
      MAX_REFERERS_PER_STOCK,
      OTHER_REFERERS,
    ]);
    const s = rows[0];
    if (!s) throw new AppError(ErrorCode.Unauthenticated, UNKNOWN_API_KEY_MESSAGE);
    return {
      stockId: s.id,
      archived: s.archived,
      subscriptionExpired: s.subscription_expired,
      stock: {
        ticker: s.ticker,
        exchange: s.exchange,
        combinedTicker: combinedTickerOf(s.ticker, s.exchange),
        isin: s.isin,
        companyName: s.company_name,
        websiteUrl: s.website_url,
        companyLogoUrl: s.company_logo_url,
      },
    };
  }
}
