import type { DiskReportItem, FileCleanup } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FileStorage, StoredFileInfo } from '../storage/file-storage';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { diskReportOf } from './disk-report';
import {
  duplicateGroups,
  missingOnDisk,
  notInDatabase,
  pathOfFile,
  sameSizeFiles,
  StoredReference,
} from './file-cleanup';

/** The system settings' file cleanup and disk report (spec sections 2, 3): reports, they change nothing. */
@Injectable()
export class ToolsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: FileStorage,
  ) {}

  /** Announcements whose file is missing, identical files, and files no announcement names. */
  async fileCleanup(): Promise<FileCleanup> {
    const files: StoredFileInfo[] = [];
    for await (const f of this.storage.list()) files.push(f);
    const rows = (await this.dataSource.query(
      `SELECT a.send_guid, a.headline, a.released_at, a.local_path, coalesce(s.combined_ticker, '') AS combined_ticker
         FROM announcements.announcements a
         LEFT JOIN announcements.stocks s ON s.id = a.stock_id
        WHERE a.local_path IS NOT NULL`,
    )) as Array<{
      send_guid: string;
      headline: string;
      released_at: Date;
      local_path: string;
      combined_ticker: string;
    }>;
    const references: StoredReference[] = rows.map((r) => ({
      combinedTicker: r.combined_ticker,
      sendGuid: r.send_guid,
      headline: r.headline,
      releasedAt: new Date(r.released_at),
      localPath: r.local_path,
    }));

    const hashed: Array<StoredFileInfo & { sha256: string }> = [];
    for (const f of sameSizeFiles(files)) {
      const sha256 = await this.storage.sha256(pathOfFile(f));
      // A file removed since it was listed has no content to compare.
      if (sha256) hashed.push({ ...f, sha256 });
    }
    return {
      missingOnDisk: missingOnDisk(references, files),
      duplicates: duplicateGroups(hashed),
      onDiskButNotInDatabase: notInDatabase(
        files,
        references.map((r) => r.localPath),
      ),
    };
  }

  /** Each stock's stored PDF bytes (from file_size), largest first; billable stocks only on request. */
  async diskReport(includeBillable: boolean): Promise<DiskReportItem[]> {
    const stocks = await this.dataSource.getRepository(StockProjectionEntity).find();
    const usage = (await this.dataSource.query(
      `SELECT stock_id, sum(file_size)::bigint AS bytes FROM announcements.announcements
        WHERE local_path IS NOT NULL AND file_size IS NOT NULL GROUP BY stock_id`,
    )) as Array<{ stock_id: string; bytes: string }>;
    return diskReportOf(stocks, new Map(usage.map((u) => [u.stock_id, Number(u.bytes)])), includeBillable);
  }
}
