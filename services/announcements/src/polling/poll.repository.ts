import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { dueStocksWhere } from '../ingestion/poll-rules';

/** What a poll reads: the stock polled, the due stocks of a market poll, which items are stored already. */
@Injectable()
export class PollRepository {
  constructor(private readonly dataSource: DataSource) {}

  async stock(id: string): Promise<StockProjectionEntity | null> {
    return this.dataSource.getRepository(StockProjectionEntity).findOne({ where: { id } });
  }

  /** The due stocks, each with whether it has documents still to download. */
  async dueStocksWithPending(): Promise<
    Array<Pick<StockProjectionEntity, 'id' | 'ticker'> & { pending: boolean }>
  > {
    return this.dataSource.query(
      `SELECT s.id, s.ticker,
              EXISTS (SELECT 1 FROM announcements.announcements a
                      WHERE a.stock_id = s.id AND a.file_status = 'pending') AS pending
       FROM announcements.stocks s WHERE ${dueStocksWhere('s')} ORDER BY s.id`,
    );
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
