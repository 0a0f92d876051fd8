import {
  AppError,
  createLogger,
  HandledRequest,
  Outbox,
  SERVICE_CONFIG,
  Tx,
  UnitOfWork,
} from '@irp/platform';
import {
  Actor,
  Announcement,
  AnnouncementDeliveredEvent,
  ErrorCode,
  InitialPollProgress,
  splitEmailList,
  Topics,
  WidgetAnnouncement,
} from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AnnouncementsConfig } from '../config';
import { FileStorage, pdfPathFor } from '../storage/file-storage';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AnnouncementEntity } from './announcement.entity';
import { toAnnouncement } from './announcement.mapper';
import { AnnouncementsRepository } from './announcements.repository';
import {
  AnnouncementRuleMessages,
  checkSave,
  existingDateOf,
  manualSendChannels,
  mergeSendHistory,
  minuteOf,
  nextHeadlineOriginal,
  pdfFileName,
  pickEditTarget,
  requireAdminForConfirmation,
  requireEditAnnouncements,
  requireSendAnnouncements,
  tickerOf,
} from './announcement-rules';
import { toInitialPollProgress, toWidgetAnnouncement } from './announcement-views';
import { UploadStaging } from './upload-staging';

const log = createLogger('announcements');

type SaveRequest = HandledRequest<typeof Topics.AnnouncementsSave>;
type AnnouncementRef = { actor: Actor; combinedTicker: string; sendGuid: string };

/** The widget shows a company's latest announcements; older ones are on the exchange's site. */
const WIDGET_LIST_LIMIT = 100;

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);
const notFound = (ref: string) => new AppError(ErrorCode.NotFound, AnnouncementRuleMessages.notFound(ref));

/**
 * Stored announcements (spec sections 2-5): the Announcements tab's list, add and edit with an uploaded
 * PDF, delete, manual and confirmation sends, PDF reads and the widget's list and hits. A change and the
 * event it implies are written in one transaction (the outbox), so a send is requested exactly when the
 * row says it was.
 */
@Injectable()
export class AnnouncementsService {
  constructor(
    private readonly announcements: AnnouncementsRepository,
    private readonly uploads: UploadStaging,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
    private readonly storage: FileStorage,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  // -------------------------------------------------------------------------------------------------
  // Reads

  /** A stock's announcements, newest first, with its latest initial poll. */
  async list(
    combinedTicker: string,
    includeDeleted: boolean,
  ): Promise<{ announcements: Announcement[]; initialPoll: InitialPollProgress | null }> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const rows = await this.announcements.ofStock(stock.id, { includeDeleted });
    const poll = await this.announcements.initialPollOf(stock.id);
    return {
      announcements: rows.map(toAnnouncement),
      initialPoll: poll ? toInitialPollProgress(poll) : null,
    };
  }

  /** A chunk of a stored PDF, with the name a download gets. */
  async readFile(sendGuid: string, offset: number, length: number) {
    const e = await this.announcements.bySendGuid(sendGuid);
    if (!e) throw notFound(sendGuid);
    if (e.fileStatus !== 'stored' || !e.localPath)
      throw new AppError(ErrorCode.NotFound, AnnouncementRuleMessages.noStoredFile(sendGuid));
    const read = await this.storage.read(e.localPath, offset, length);
    if (!read) {
      log.warn({ sendGuid, localPath: e.localPath }, 'stored PDF missing on disk (file cleanup lists it)');
      throw new AppError(ErrorCode.NotFound, AnnouncementRuleMessages.noStoredFile(sendGuid));
    }
    const stock = await this.stocks.byId(e.stockId);
    return {
      data: read.bytes.toString('base64'),
      size: read.size,
      fileName: pdfFileName(stock?.ticker ?? 'announcement', e.releasedAt, e.headline),
      stockId: e.stockId,
    };
  }

  /** The widget's list: not deleted, newest first. */
  async widgetList(stockId: string): Promise<WidgetAnnouncement[]> {
    const rows = await this.announcements.ofStock(stockId, { limit: WIDGET_LIST_LIMIT });
    return rows.map(toWidgetAnnouncement);
  }

  /** The widget opened an announcement: one more hit, counted in one statement so no opening is lost. */
  async widgetOpen(stockId: string, sendGuid: string): Promise<WidgetAnnouncement> {
    const hit = await this.announcements.countHit(stockId, sendGuid);
    if (!hit) throw notFound(sendGuid);
    const e = await this.announcements.byId(hit.id);
    // The count this opening made, even if another opening has counted since.
    return { ...toWidgetAnnouncement(e), hits: hit.hits };
  }

  // -------------------------------------------------------------------------------------------------
  // Changes

  /** Stages one chunk of an upload; the save names the upload. */
  async uploadPart(part: { uploadId: string; index: number; data: string }): Promise<number> {
    return this.uploads.stage(part, this.config.MAX_PDF_BYTES);
  }

  /**
   * Add or edit (spec sections 2 and 5); an add publishes `announcement.detected` (origin manual). A refused
   * save discards its upload's staged parts at once: an upload id is used by one save only.
   */
  async save(req: SaveRequest): Promise<Announcement> {
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

  private async saveChecked(req: SaveRequest): Promise<Announcement> {
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
          sent: false,
          sendHistory: [],
          sendRequestedAt: null,
          numComments: 0,
          hits: 0,
          alertLatencyMs: null,
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

  /** Deleting keeps the row (shown struck through); deleting it again is refused. */
  async delete(req: AnnouncementRef): Promise<Announcement> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    requireEditAnnouncements(req.actor, stock);
    return this.units.run(async (m) => {
      const e = await this.locked(m, stock.id, req.sendGuid);
      if (e.deletedOn) throw bad(AnnouncementRuleMessages.alreadyDeleted);
      const now = new Date();
      await this.announcements.update(m, e.id, { deletedOn: now, updatedAt: now });
      return toAnnouncement(await this.announcements.byId(e.id, m));
    });
  }

  /**
   * Requests a manual send. The row is locked, so of two sends at once without override exactly one is
   * requested and the other is told the announcement was already sent.
   */
  async send(req: AnnouncementRef & { override: boolean }): Promise<Announcement> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    requireSendAnnouncements(req.actor, stock);
    return this.units.run(async (m) => {
      const e = await this.locked(m, stock.id, req.sendGuid);
      if (e.deletedOn) throw bad(AnnouncementRuleMessages.deletedNotSent);
      if ((e.sent || e.sendRequestedAt) && !req.override)
        throw new AppError(ErrorCode.Conflict, AnnouncementRuleMessages.alreadySent);
      const channels = manualSendChannels(stock, e.priceSensitive, tickerOf(stock));
      const now = new Date();
      await this.announcements.update(m, e.id, { sendRequestedAt: now, updatedAt: now });
      const announcement = toAnnouncement({ ...e, sendRequestedAt: now, updatedAt: now });
      await this.outbox.add(m, Topics.AnnouncementSendRequested, stock.id, {
        requestId: randomUUID(),
        stockId: stock.id,
        combinedTicker: stock.combinedTicker,
        channels,
        override: req.override,
        auto: false,
        requestedBy: req.actor.username,
        requestedAt: now.toISOString(),
        announcement,
      });
      return announcement;
    });
  }

  /** Send Confirmation Email (admin): the announcement to the stock's confirmation emails. */
  async sendConfirmation(
    req: AnnouncementRef,
  ): Promise<{ announcement: Announcement; recipients: string[] }> {
    requireAdminForConfirmation(req.actor);
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    const recipients = splitEmailList(stock.confirmationEmail);
    if (!recipients.length) throw bad(AnnouncementRuleMessages.noConfirmationEmails(tickerOf(stock)));
    return this.units.run(async (m) => {
      const e = await this.find(m, stock.id, req.sendGuid);
      const announcement = toAnnouncement(e);
      await this.outbox.add(m, Topics.AnnouncementConfirmationRequested, stock.id, {
        requestId: randomUUID(),
        stockId: stock.id,
        combinedTicker: stock.combinedTicker,
        recipients,
        requestedBy: req.actor.username,
        requestedAt: new Date().toISOString(),
        announcement,
      });
      return { announcement, recipients };
    });
  }

  /**
   * Mail went out (`announcement.delivered` from the email-marketing service): sent, and each address once in
   * sendHistory, so a redelivered event changes nothing.
   */
  async markSent(event: AnnouncementDeliveredEvent): Promise<void> {
    await this.units.run(async (m) => {
      const e = await this.announcements.find(m, event.stockId, event.sendGuid, true);
      if (!e) {
        log.warn(
          { sendGuid: event.sendGuid, stockId: event.stockId },
          'announcement.delivered for an unknown announcement',
        );
        return;
      }
      const { history, added } = mergeSendHistory(e.sendHistory ?? [], event.timestamp, event.emailAddresses);
      // The first send's latency is the alert latency; a later resend does not replace it.
      const alertLatencyMs = e.alertLatencyMs ?? event.alertLatencyMs ?? null;
      if (e.sent && !added && alertLatencyMs === e.alertLatencyMs) return;
      await this.announcements.update(m, e.id, {
        sent: true,
        sendHistory: history,
        alertLatencyMs,
        updatedAt: new Date(),
      });
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Internals

  private async find(m: Tx, stockId: string, sendGuid: string, lock = false): Promise<AnnouncementEntity> {
    const e = await this.announcements.find(m, stockId, sendGuid, lock);
    if (!e) throw notFound(sendGuid);
    return e;
  }

  private locked(m: Tx, stockId: string, sendGuid: string) {
    return this.find(m, stockId, sendGuid, true);
  }

  /** The announcement an edit names (by sendGuid, else by existing headline and date), locked. */
  private async editTarget(
    m: Tx,
    stockId: string,
    req: SaveRequest,
    existingAt: Date | null,
  ): Promise<AnnouncementEntity> {
    if (req.sendGuid) return this.locked(m, stockId, req.sendGuid);
    const headline = (req.existingAnnouncementHeadline ?? '').trim();
    const at = existingAt ?? existingDateOf(req.existingAnnouncementDate);
    const { from, to } = minuteOf(at);
    const matches = await this.announcements.withHeadlineBetween(m, stockId, headline, from, to);
    const target = pickEditTarget(matches);
    if (!target) throw notFound(`'${headline}' of ${(req.existingAnnouncementDate ?? '').trim()}`);
    return this.locked(m, stockId, target.sendGuid);
  }
}
