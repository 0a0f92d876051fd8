import type { FileCleanup } from '@irp/proto';
import type { StoredFileInfo } from '../storage/file-storage';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';

/**
 * The file cleanup report (spec section 3, system settings' tool) as pure functions over what the
 * database names and what the storage holds. A report only: staff decide what to delete.
 */

/** An announcement that names a stored file. */
export type StoredReference = Pick<AnnouncementEntity, 'sendGuid' | 'headline' | 'releasedAt'> &
  Pick<StockProjectionEntity, 'combinedTicker'> & { localPath: string };

/** A path relative to the storage root, one spelling: '/'-separated, no leading './' or '/'. */
export const normalisePath = (path: string): string =>
  path
    .replace(/\\/g, '/')
    .replace(/^(\.\/|\/)+/, '')
    .replace(/\/{2,}/g, '/');

export const pathOfFile = (f: StoredFileInfo): string =>
  normalisePath(f.directory ? `${f.directory}/${f.filename}` : f.filename);

const byPath = (a: StoredFileInfo, b: StoredFileInfo) => pathOfFile(a).localeCompare(pathOfFile(b));

/** Announcements whose file is not in the storage. */
export function missingOnDisk(
  references: readonly StoredReference[],
  files: readonly StoredFileInfo[],
): FileCleanup['missingOnDisk'] {
  const onDisk = new Set(files.map(pathOfFile));
  return references
    .filter((r) => !onDisk.has(normalisePath(r.localPath)))
    .sort(
      (a, b) =>
        a.combinedTicker.localeCompare(b.combinedTicker) || a.releasedAt.getTime() - b.releasedAt.getTime(),
    )
    .map((r) => ({
      combinedTicker: r.combinedTicker,
      sendGuid: r.sendGuid,
      headline: r.headline,
      date: r.releasedAt.toISOString(),
      localPath: r.localPath,
    }));
}

/** Files no announcement names (a deleted announcement still names its file). */
export function notInDatabase(
  files: readonly StoredFileInfo[],
  localPaths: readonly string[],
): FileCleanup['onDiskButNotInDatabase'] {
  const named = new Set(localPaths.map(normalisePath));
  return files
    .filter((f) => !named.has(pathOfFile(f)))
    .sort(byPath)
    .map(({ directory, filename, size }) => ({ directory, filename, size }));
}

/** Only files that share their size with another can be identical: the others need no hashing. */
export function sameSizeFiles(files: readonly StoredFileInfo[]): StoredFileInfo[] {
  const count = new Map<number, number>();
  for (const f of files) count.set(f.size, (count.get(f.size) ?? 0) + 1);
  return files.filter((f) => (count.get(f.size) ?? 0) > 1);
}

/** Groups of files with identical content (same SHA-256), largest first. */
export function duplicateGroups(
  hashed: ReadonlyArray<StoredFileInfo & { sha256: string }>,
): FileCleanup['duplicates'] {
  const groups = new Map<string, Array<StoredFileInfo & { sha256: string }>>();
  for (const f of hashed) groups.set(f.sha256, [...(groups.get(f.sha256) ?? []), f]);
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => ({
      sha256: g[0].sha256,
      size: g[0].size,
      files: [...g].sort(byPath).map(({ directory, filename, size }) => ({ directory, filename, size })),
    }))
    .sort((a, b) => b.size - a.size || a.sha256.localeCompare(b.sha256));
}
