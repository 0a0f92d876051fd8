import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dueStocksWhere } from '../ingestion/poll-rules';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';

/** Reads the stock projection for the scheduler: which stocks are due for a poll now. */
@Injectable()
export class DueStocksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The due stocks (the rule is `dueStocksWhere`), by ticker. */
  async list(): Promise<Array<Pick<StockProjectionEntity, 'id' | 'ticker'>>> {
    return this.dataSource.query(
      `SELECT s.id, s.ticker FROM announcements.stocks s WHERE ${dueStocksWhere('s')} ORDER BY s.ticker, s.id`,
    );
  }

  /** Whether any stock is due: the first one found answers. */
  async anyDue(): Promise<boolean> {
    const [row] = await this.dataSource.query<Array<{ due: boolean }>>(
      `SELECT EXISTS (SELECT 1 FROM announcements.stocks s WHERE ${dueStocksWhere('s')}) AS due`,
    );
    return row.due;
  }
}
