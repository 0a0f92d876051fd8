import type { DiskReportItem, FileCleanup } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { FileStorage, StoredFileInfo } from '../storage/file-storage';
import { diskReportOf } from './disk-report';
import {
  duplicateGroups,
  missingOnDisk,
  notInDatabase,
  pathOfFile,
  sameSizeFiles,
  StoredReference,
} from './file-cleanup';
import { ToolsRepository } from './tools.repository';

/** The system settings' file cleanup and disk report (spec sections 2, 3): reports, they change nothing. */
@Injectable()
export class ToolsService {
  constructor(
    private readonly reads: ToolsRepository,
    private readonly storage: FileStorage,
  ) {}

  /** Announcements whose file is missing, identical files, and files no announcement names. */
  async fileCleanup(): Promise<FileCleanup> {
    const files: StoredFileInfo[] = [];
    for await (const f of this.storage.list()) files.push(f);
    const references: StoredReference[] = await this.reads.storedFiles();

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
    const stocks = await this.reads.stocks();
    return diskReportOf(stocks, await this.reads.storedBytesPerStock(), includeBillable);
  }
}
