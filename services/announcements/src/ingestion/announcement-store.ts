import {
  createLogger,
  errorText,
  isTransientDatabaseError,
  mapLimit,
  Outbox,
  SERVICE_CONFIG,
  UnitOfWork,
  withTimeout,
  type Tx,
} from '@irp/platform';
import { Topics, type AnnouncementOrigin } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { toAnnouncement } from '../stored-announcements/announcement.mapper';
import type { AnnouncementsConfig } from '../config';
import { DocumentRefusedError, type AnnouncementSource, type SourceAnnouncement } from '../sources/source';
import { FileStorage, pdfPathFor } from '../storage/file-storage';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import {
  DetectedAnnouncementsRepository,
  type DetectedAnnouncement,
  type KnownAnnouncement,
} from './detected-announcements.repository';
import { announcementsDetected, documentDownloads, sourceKeyConflicts } from './metrics';
import { afterFailedDownload, sourceKeyConflict } from './poll-rules';

const log = createLogger('announcement-store');

/** What storing needs of a stock. */
export type StoredStock = Pick<StockProjectionEntity, 'id' | 'combinedTicker'>;

/** Items per INSERT (and per transaction with their events): an initial poll's year can hold hundreds. */
const STORE_BATCH = 500;

/** Downloads of one stock at a time, per poll: enough to catch up a year of PDFs, gentle on the source. */
const DOWNLOADS_AT_ONCE = 4;

/** The parts of a source item stored, checked (a release time that does not parse is not an announcement). */
function rowsOf(items: readonly SourceAnnouncement[]) {
  const seen = new Set<string>();
  const rows: DetectedAnnouncement[] = [];
  for (const item of items) {
    const released = new Date(item.releasedAt);
    if (!item.sourceKey || seen.has(item.sourceKey) || Number.isNaN(released.getTime())) {
      if (item.sourceKey && !seen.has(item.sourceKey))
        log.warn(
          { sourceKey: item.sourceKey, releasedAt: item.releasedAt },
          'source item without a valid release time; skipped',
        );
      continue;
    }
    seen.add(item.sourceKey);
    rows.push({
      sourceKey: item.sourceKey,
      headline: item.headline,
      releasedAt: released.toISOString(),
      priceSensitive: item.priceSensitive,
      documentUrl: item.documentUrl ?? '',
    });
  }
  // One order for every writer: two pollers inserting overlapping keys in opposite orders would deadlock.
  return rows.sort((a, b) => (a.sourceKey < b.sourceKey ? -1 : a.sourceKey > b.sourceKey ? 1 : 0));
}

/** Conflicts warned of already: a source that reuses a key reports it at every poll; one warning each. */
const warnedConflicts = new Set<string>();
const MAX_WARNED_CONFLICTS = 10_000;

/**
 * Stores what sources report, once: the natural key (stock, source key) with INSERT ... ON CONFLICT DO
 * NOTHING means however many pollers see an announcement, one row is stored and one `announcement.detected`
 * is published (in the same transaction, for exactly the rows inserted). Documents are fetched afterwards,
 * from the rows left `pending`, so a poller that dies between the two leaves work the next poll finishes.
 */
@Injectable()
export class AnnouncementStore {
  constructor(
    private readonly rows: DetectedAnnouncementsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly storage: FileStorage,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /**
   * Stores the items not stored yet and returns the rows inserted (oldest first). Announcements of any origin
   * but `poll` are marked `not-automatic` at once: they are never sent automatically. With `manager`, runs in
   * the caller's transaction (reconcile's apply), else in one transaction per batch.
   */
  async storeDetected(
    stock: StoredStock,
    items: readonly SourceAnnouncement[],
    origin: AnnouncementOrigin,
    manager?: Tx,
  ): Promise<AnnouncementEntity[]> {
    let rows = rowsOf(items);
    if (!rows.length) return [];
    // Most polls find nothing new: one read answers them without a transaction. What it finds missing is
    // inserted with ON CONFLICT DO NOTHING all the same, so a concurrent poller never stores it twice.
    const known = await this.rows.known(
      stock.id,
      rows.map((r) => r.sourceKey),
      manager,
    );
    if (known.length) {
      this.warnOfConflicts(stock, rows, known, origin);
      const storedKeys = new Set(known.map((k) => k.sourceKey));
      rows = rows.filter((r) => !storedKeys.has(r.sourceKey));
    }
    const stored: AnnouncementEntity[] = [];
    for (let from = 0; from < rows.length; from += STORE_BATCH) {
      const batch = rows.slice(from, from + STORE_BATCH);
      const insert = (tx: Tx) => this.insertBatch(tx, stock, batch, origin);
      stored.push(...(manager ? await insert(manager) : await this.unitOfWork.run(insert)));
    }
    if (stored.length) {
      announcementsDetected.inc({ origin }, stored.length);
      log.info(
        { stockId: stock.id, combinedTicker: stock.combinedTicker, origin, stored: stored.length },
        'announcements detected',
      );
    }
    return stored.sort((a, b) => a.releasedAt.getTime() - b.releasedAt.getTime());
  }

  /**
   * A key stored already is the same announcement, not stored again; but one that comes back with another
   * headline or release time means the source reuses keys (a stand-in restarted, a vendor renumbering): the
   * item is not stored, and that is said (a warning and irp_announcements_source_key_conflicts_total), once
   * per conflict and process, rather than the announcement vanishing without a trace.
   */
  private warnOfConflicts(
    stock: StoredStock,
    rows: DetectedAnnouncement[],
    known: KnownAnnouncement[],
    origin: AnnouncementOrigin,
  ) {
    const byKey = new Map(rows.map((r) => [r.sourceKey, r]));
    for (const k of known) {
      const incoming = byKey.get(k.sourceKey);
      if (!incoming) continue;
      const conflict = sourceKeyConflict(
        { headline: k.headline, headlineOriginal: k.headlineOriginal, releasedAt: new Date(k.releasedAt) },
        incoming,
      );
      if (!conflict) continue;
      const id = JSON.stringify([stock.id, k.sourceKey, incoming.headline, incoming.releasedAt]);
      if (warnedConflicts.has(id)) continue;
      if (warnedConflicts.size >= MAX_WARNED_CONFLICTS) warnedConflicts.clear();
      warnedConflicts.add(id);
      sourceKeyConflicts.inc({ origin });
      log.warn(
        {
          stockId: stock.id,
          combinedTicker: stock.combinedTicker,
          sourceKey: k.sourceKey,
          origin,
          differs: Object.keys(conflict).filter((f) => conflict[f as keyof typeof conflict]),
          stored: {
            headline: k.headlineOriginal ?? k.headline,
            releasedAt: new Date(k.releasedAt).toISOString(),
          },
          incoming: { headline: incoming.headline, releasedAt: incoming.releasedAt },
        },
        'source key already stored with another headline or release time; the source reuses keys, item not stored',
      );
    }
  }

  private async insertBatch(
    tx: Tx,
    stock: StoredStock,
    batch: DetectedAnnouncement[],
    origin: AnnouncementOrigin,
  ): Promise<AnnouncementEntity[]> {
    const entities = await this.rows.insertNew(tx, stock.id, batch, origin);
    for (const e of entities) {
      await this.outbox.add(tx, Topics.AnnouncementDetected, stock.id, {
        stockId: stock.id,
        combinedTicker: stock.combinedTicker,
        origin,
        announcement: toAnnouncement(e),
        releasedAt: e.releasedAt.toISOString(),
        detectedAt: e.createdAt.toISOString(),
      });
    }
    return entities;
  }

  /**
   * Fetches the documents of the stock's rows still `pending` (new ones, and any a dead poller or an earlier
   * failure left): stored under DATA_DIR; a document the source refuses (not a PDF, too large) leaves the
   * announcement `refused` with the reason; other failures stay pending for the next poll until
   * MAX_DOWNLOAD_ATTEMPTS, then `failed`. Returns how many were stored.
   */
  async downloadPending(stock: StoredStock, source: AnnouncementSource): Promise<number> {
    const pending = await this.rows.pendingDocuments(stock.id);
    if (!pending.length) return 0;
    const outcomes = await mapLimit(pending, DOWNLOADS_AT_ONCE, (row) => this.download(stock, row, source));
    return outcomes.filter((o) => o === 'stored').length;
  }

  private async download(
    stock: StoredStock,
    row: AnnouncementEntity,
    source: AnnouncementSource,
  ): Promise<'stored' | 'refused' | 'retry' | 'failed'> {
    // Only a row still pending is changed: another poller may have finished it meanwhile.
    const update = (values: Partial<AnnouncementEntity>) => this.rows.updateIfPending(row.id, values);
    try {
      // The adapter has its own timeout per exchange; this guards a whole download (terms page + PDF).
      const document = await withTimeout(
        source.download(row.remotePath),
        this.config.SOURCE_TIMEOUT_MS * 3,
        `download of ${row.remotePath}`,
      );
      const path = pdfPathFor(stock.combinedTicker, row.releasedAt, row.sendGuid);
      const { size, sha256 } = await this.storage.write(path, document.bytes);
      await update({
        localPath: path,
        fileSize: size,
        fileSha256: sha256,
        fileStatus: 'stored',
        fileProblem: null,
        updatedAt: new Date(),
      });
      documentDownloads.inc({ outcome: 'stored' });
      return 'stored';
    } catch (error) {
      if (isTransientDatabaseError(error)) throw error;
      if (error instanceof DocumentRefusedError) {
        log.warn(
          { stockId: stock.id, sendGuid: row.sendGuid, url: row.remotePath, reason: error.message },
          'document refused; announcement kept without it',
        );
        await update({
          fileStatus: 'refused',
          fileProblem: error.message,
          updatedAt: new Date(),
        });
        documentDownloads.inc({ outcome: 'refused' });
        return 'refused';
      }
      const next = afterFailedDownload(row.fileProblem, errorText(error));
      log.warn(
        { stockId: stock.id, sendGuid: row.sendGuid, url: row.remotePath, ...next },
        'document download failed',
      );
      await update({ ...next, updatedAt: new Date() });
      const outcome = next.fileStatus === 'failed' ? 'failed' : 'retry';
      documentDownloads.inc({ outcome });
      return outcome;
    }
  }
}
