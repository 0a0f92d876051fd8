import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';

/** A stored PDF and what names it (the file cleanup compares them with the disk). */
export interface StoredFileRow {
  send_guid: string;
  headline: string;
  released_at: Date;
  local_path: string;
  combined_ticker: string;
}

/** The reads of the file cleanup and the disk report (across announcements and the stock projection). */
@Injectable()
export class ToolsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every projected stock (archived too). */
  stocks(): Promise<StockProjectionEntity[]> {
    return this.dataSource.getRepository(StockProjectionEntity).find();
  }

  /** Every announcement with a stored file, with its stock's combined ticker ('' if the stock is gone). */
  storedFiles(): Promise<StoredFileRow[]> {
    return this.dataSource.query(
      `SELECT a.send_guid, a.headline, a.released_at, a.local_path, coalesce(s.combined_ticker, '') AS combined_ticker
         FROM announcements.announcements a
         LEFT JOIN announcements.stocks s ON s.id = a.stock_id
        WHERE a.local_path IS NOT NULL`,
    );
  }

  /** Stored PDF bytes per stock (from file_size). */
  async storedBytesPerStock(): Promise<Map<string, number>> {
    const usage = (await this.dataSource.query(
      `SELECT stock_id, sum(file_size)::bigint AS bytes FROM announcements.announcements
        WHERE local_path IS NOT NULL AND file_size IS NOT NULL GROUP BY stock_id`,
    )) as Array<{ stock_id: string; bytes: string }>;
    return new Map(usage.map((u) => [u.stock_id, Number(u.bytes)]));
  }
}
