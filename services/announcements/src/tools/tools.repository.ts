import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import type { StoredReference } from './file-cleanup';

/** The reads of the file cleanup and the disk report (across announcements and the stock projection). */
@Injectable()
export class ToolsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every projected stock (archived too). */
  stocks(): Promise<StockProjectionEntity[]> {
    return this.dataSource.getRepository(StockProjectionEntity).find();
  }

  /** Every announcement with a stored file, with its stock's combined ticker ('' if the stock is gone). */
  storedFiles(): Promise<StoredReference[]> {
    return this.dataSource.query(
      `SELECT a.send_guid AS "sendGuid", a.headline, a.released_at AS "releasedAt", a.local_path AS "localPath",
              coalesce(s.combined_ticker, '') AS "combinedTicker"
         FROM announcements.announcements a
         LEFT JOIN announcements.stocks s ON s.id = a.stock_id
        WHERE a.local_path IS NOT NULL`,
    );
  }

  /** Stored PDF bytes per stock (from file_size). */
  async storedBytesPerStock(): Promise<Map<string, number>> {
    const usage = (await this.dataSource.query(
      `SELECT stock_id AS "stockId", sum(file_size)::bigint AS bytes FROM announcements.announcements
        WHERE local_path IS NOT NULL AND file_size IS NOT NULL GROUP BY stock_id`,
    )) as Array<Pick<AnnouncementEntity, 'stockId'> & { bytes: string }>;
    return new Map(usage.map((u) => [u.stockId, Number(u.bytes)]));
  }
}
