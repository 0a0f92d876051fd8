import { MAX_REFERERS_PER_STOCK, OTHER_REFERERS } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StockEntity } from '../stocks/stock.entity';
import type { RefererEntity } from './referer.entity';

/** A referer as stored (its count a bigint, which the driver returns as text). */
export type StoredReferer = Pick<RefererEntity, 'stockId' | 'url' | 'count' | 'first' | 'last'>;

/** A stock as the widget API answers it, with what the gateway needs to refuse it. */
export type WidgetLookupStock = Pick<
  StockEntity,
  | 'id'
  | 'ticker'
  | 'exchange'
  | 'isin'
  | 'companyName'
  | 'websiteUrl'
  | 'companyLogoUrl'
  | 'archived'
  | 'subscriptionExpired'
>;

/** The referer columns, named as RefererEntity's properties. */
const REFERER_COLUMNS = `stock_id AS "stockId", url, count, first, last`;

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
    SELECT id, ticker, exchange, isin, company_name AS "companyName", website_url AS "websiteUrl",
      company_logo_url AS "companyLogoUrl", archived, subscription_expired AS "subscriptionExpired"
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

/** Widget referers and API hits; the only place that queries their tables. */
@Injectable()
export class ReferersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One stock's referers, most recently seen first, and its hits ever. The LIMIT keeps a stock under
   * MAX_REFERERS_PER_STOCK pages plus OTHER_REFERERS even for rows the cap did not see (concurrent first
   * sightings, rows from before it).
   */
  async forStock(stockId: string): Promise<{ referers: StoredReferer[]; hits: number }> {
    const [referers, hits] = await Promise.all([
      this.dataSource.query(
        `SELECT ${REFERER_COLUMNS} FROM stocks.referers WHERE stock_id = $1
         ORDER BY last DESC, url LIMIT $2`,
        [stockId, MAX_REFERERS_PER_STOCK + 1],
      ) as Promise<StoredReferer[]>,
      this.dataSource.query(
        `SELECT COALESCE(sum(count), 0)::bigint AS hits FROM stocks.api_hits WHERE stock_id = $1`,
        [stockId],
      ) as Promise<Array<{ hits: string }>>,
    ]);
    return { referers, hits: Number(hits[0]?.hits ?? 0) };
  }

  /**
   * Every stock (archived too) by ticker with its hits, and the `perStock` most recently seen referers of
   * each: two queries for any number of stocks.
   */
  async all(perStock: number): Promise<{
    stocks: Array<Pick<StockEntity, 'id' | 'ticker' | 'exchange'> & { hits: string }>;
    referers: StoredReferer[];
  }> {
    const [stocks, referers] = await Promise.all([
      this.dataSource.query(
        `SELECT s.id, s.ticker, s.exchange, COALESCE(h.hits, 0)::bigint AS hits
         FROM stocks.stocks s
         LEFT JOIN (SELECT stock_id, sum(count) AS hits FROM stocks.api_hits GROUP BY stock_id) h
           ON h.stock_id = s.id
         ORDER BY s.ticker, s.exchange`,
      ) as Promise<Array<Pick<StockEntity, 'id' | 'ticker' | 'exchange'> & { hits: string }>>,
      this.dataSource.query(
        `SELECT ${REFERER_COLUMNS} FROM (
           SELECT stock_id, url, count, first, last,
                  row_number() OVER (PARTITION BY stock_id ORDER BY last DESC, url) AS n
           FROM stocks.referers
         ) ranked
         WHERE n <= $1
         ORDER BY last DESC, url`,
        [perStock],
      ) as Promise<StoredReferer[]>,
    ]);
    return { stocks, referers };
  }

  /** The stock of an API key (if any), its hit and its referer (`url`, already cut) counted. */
  async widgetLookup(apiKey: string, url: string | null): Promise<WidgetLookupStock | undefined> {
    const rows: WidgetLookupStock[] = await this.dataSource.query(WIDGET_LOOKUP_SQL, [
      apiKey,
      url,
      MAX_REFERERS_PER_STOCK,
      OTHER_REFERERS,
    ]);
    return rows[0];
  }
}
