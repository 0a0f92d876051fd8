import { createLogger, HandledRequest, Outbox, SERVICE_CONFIG, Tx, UnitOfWork } from '@irp/platform';
import { StoredAnnouncement, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AnnouncementsConfig } from '../config';
import { FileStorage, pdfPathFor } from '../storage/file-storage';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { toAnnouncement } from '../stored-announcements/announcement.mapper';
import { findAnnouncement, notFound } from './announcement-lookup';
import {
  checkSave,
  existingDateOf,
  minuteOf,
  nextHeadlineOriginal,
  pickEditTarget,
  requireEditAnnouncements,
} from './announcement-rules';
import { AnnouncementsRepository } from './announcements.repository';
import { UploadStaging } from './upload-staging';

const log = createLogger('announcements');

type SaveRequest = HandledRequest<typeof Topics.AnnouncementsSave>;

/**
 * Add and edit with an uploaded PDF (spec sections 2 and 5): the upload's chunks are staged first, the save
 * names the upload. An add and its `announcement.detected` are written in one transaction (the outbox).
 */
@Injectable()
export class SaveAnnouncementService {
  constructor(
    private readonly announcements: AnnouncementsRepository,
    private readonly uploads: UploadStaging,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
    private readonly storage: FileStorage,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /** Stages one chunk of an upload; the save names the upload. */
  async uploadPart(part: { uploadId: string; index: number; data: string }): Promise<number> {
    return this.uploads.stage(part, this.config.MAX_PDF_BYTES);
  }

  /**
   * Add or edit (spec sections 2 and 5); an add publishes `announcement.detected` (origin manual). A refused
   * save discards its upload's staged parts at once: an upload id is used by one save only.
   */
  async save(req: SaveRequest): Promise<StoredAnnouncement> {
    try {
      return await this.saveChecked(req);
    } catch (error) {
      const upload = req.upload;
      if (upload)
        await this.uploads
          .drop(upload.uploadId)
          .catch((err: unknown) =>
            log.warn({ err, uploadId: upload.uploadId }, 'staged upload not discarded'),
          );
      throw error;
    }
  }

  private async saveChecked(req: SaveRequest): Promise<StoredAnnouncement> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    requireEditAnnouncements(req.actor, stock);
    const checked = checkSave({
      exchange: stock.exchange,
      sendGuid: req.sendGuid,
      existingAnnouncementHeadline: req.existingAnnouncementHeadline,
      existingAnnouncementDate: req.existingAnnouncementDate,
      headline: req.headline,
      date: req.date,
      remotePath: req.remotePath,
      videoUrl: req.videoUrl,
      hasUpload: Boolean(req.upload),
    });
    const existingAt = checked.editing && !req.sendGuid ? existingDateOf(req.existingAnnouncementDate) : null;
    const upload = req.upload;
    // Read and checked before the transaction: a refused file leaves nothing changed and holds no lock.
    const bytes = upload
      ? await this.uploads.read(upload.uploadId, upload.parts, this.config.MAX_PDF_BYTES)
      : null;
    const now = new Date();

    return this.units.run(async (m) => {
      const current = checked.editing ? await this.editTarget(m, stock.id, req, existingAt) : null;
      const sendGuid = current?.sendGuid ?? randomUUID();
      // Written inside the transaction: if the write fails, nothing is stored that names the file.
      let fileFields: Partial<AnnouncementEntity> = {};
      if (bytes) {
        const localPath = pdfPathFor(stock.combinedTicker, checked.releasedAt, sendGuid);
        const { size, sha256 } = await this.storage.write(localPath, bytes);
        fileFields = {
          localPath,
          fileStatus: 'stored' as const,
          fileProblem: null,
          fileSize: size,
          fileSha256: sha256,
        };
      }
      const fields = {
        headline: checked.headline,
        releasedAt: checked.releasedAt,
        priceSensitive: req.priceSensitive,
        videoUrl: checked.videoUrl,
        videoDescription: req.videoDescription,
        thumbnailPageNum: req.thumbnailPageNum,
        updatedAt: now,
        ...fileFields,
      };

      let id: string;
      if (current) {
        id = current.id;
        await this.announcements.update(m, id, {
          ...fields,
          headlineOriginal: nextHeadlineOriginal(current, checked.headline),
          ...(checked.remotePath !== null ? { remotePath: checked.remotePath } : {}),
        });
      } else {
        id = randomUUID();
        await this.announcements.insert(m, {
          id,
          stockId: stock.id,
          sendGuid,
          sourceKey: `manual:${randomUUID()}`,
          headlineOriginal: null,
          remotePath: checked.remotePath ?? '',
          localPath: null,
          fileStatus: 'none',
          fileProblem: null,
          fileSize: null,
          fileSha256: null,
          sendRequestedAt: null,
          numComments: 0,
          hits: 0,
          deletedOn: null,
          origin: 'manual',
          // A person added it and sends it when they choose (Send Email); automatic sending is for polled ones.
          autoSend: 'not-automatic',
          autoSendAt: null,
          createdAt: now,
          ...fields,
        });
      }
      if (upload) await this.uploads.drop(upload.uploadId, m);
      const announcement = toAnnouncement(await this.announcements.byId(id, m));
      if (!current) {
        await this.outbox.add(m, Topics.AnnouncementDetected, stock.id, {
          stockId: stock.id,
          combinedTicker: stock.combinedTicker,
          origin: 'manual',
          announcement,
          releasedAt: announcement.date,
          detectedAt: now.toISOString(),
        });
      }
      return announcement;
    });
  }

  /** The announcement an edit names (by sendGuid, else by existing headline and date), locked. */
  private async editTarget(
    m: Tx,
    stockId: string,
    req: SaveRequest,
    existingAt: Date | null,
  ): Promise<AnnouncementEntity> {
    if (req.sendGuid) return findAnnouncement(this.announcements, m, stockId, req.sendGuid, true);
    const headline = (req.existingAnnouncementHeadline ?? '').trim();
    const at = existingAt ?? existingDateOf(req.existingAnnouncementDate);
    const { from, to } = minuteOf(at);
    const matches = await this.announcements.withHeadlineBetween(m, stockId, headline, from, to);
    const target = pickEditTarget(matches);
    if (!target) throw notFound(`'${headline}' of ${(req.existingAnnouncementDate ?? '').trim()}`);
    return findAnnouncement(this.announcements, m, stockId, target.sendGuid, true);
  }
}
