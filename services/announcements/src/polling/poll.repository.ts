import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { dueStocksWhere, tickerKeySql } from '../ingestion/poll-rules';

/** What a poll reads: the stock polled, the due stocks of a market read, which items are stored already. */
@Injectable()
export class PollRepository {
  constructor(private readonly dataSource: DataSource) {}

  async stock(id: string): Promise<StockProjectionEntity | null> {
    return this.dataSource.getRepository(StockProjectionEntity).findOne({ where: { id } });
  }

  /**
   * The due stocks a market read concerns: those of the read's tickers (`tickerKeys`, tickerKey's form) and
   * those with documents still to download, each with whether it has. Index probes per ticker and per
   * pending document: the cost follows the read, not the number of polled stocks.
   */
  async dueStocksOf(
    tickerKeys: string[],
  ): Promise<Array<Pick<StockProjectionEntity, 'id' | 'ticker'> & { pending: boolean }>> {
    return this.dataSource.query(
      `SELECT s.id, s.ticker,
              EXISTS (SELECT 1 FROM announcements.announcements p
                      WHERE p.stock_id = s.id AND p.file_status = 'pending') AS pending
       FROM announcements.stocks s
       WHERE s.id IN (SELECT t.id FROM announcements.stocks t
                      WHERE ${tickerKeySql('t.ticker')} = ANY($1::text[]) AND t.poll_asx AND NOT t.archived
                      UNION
                      SELECT a.stock_id FROM announcements.announcements a WHERE a.file_status = 'pending')
         AND ${dueStocksWhere('s')}
       ORDER BY s.id`,
      [tickerKeys],
    );
  }

  /**
   * A mark of the due stocks (how many, and a hash of their ids and tickers), to tell whether the polled
   * set changed since an earlier read. One aggregate in the database: no row leaves it.
   */
  async polledSetMark(): Promise<string> {
    const [row] = await this.dataSource.query<Array<{ mark: string }>>(
      `SELECT count(*) || ':' || coalesce(sum(hashtextextended(s.id::text || ' ' || s.ticker, 0)), 0) AS mark
       FROM announcements.stocks s WHERE ${dueStocksWhere('s')}`,
    );
    return row.mark;
  }

  /** Of the (stock, source key) pairs, those stored already: one index lookup per pair. */
  async storedPairs(
    stockIds: string[],
    sourceKeys: string[],
  ): Promise<Array<Pick<AnnouncementEntity, 'stockId' | 'sourceKey'>>> {
    return this.dataSource.query(
      `SELECT a.stock_id AS "stockId", a.source_key AS "sourceKey"
           FROM unnest($1::uuid[], $2::text[]) AS t(stock_id, source_key)
           JOIN announcements.announcements a ON a.stock_id = t.stock_id AND a.source_key = t.source_key`,
      [stockIds, sourceKeys],
    );
  }
}
