import { AppError, createLogger, pageOfRows, requireStockRoleOf } from '@irp/platform';
import { Actor, ErrorCode, InitialPollProgress, StockRole, StoredAnnouncement } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { toInitialPollProgress } from '../initial-poll/initial-poll.mapper';
import { FileStorage } from '../storage/file-storage';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { toAnnouncement } from '../stored-announcements/announcement.mapper';
import { notFound } from './announcement-lookup';
import { AnnouncementRuleMessages, pdfFileName } from './announcement-rules';
import { AnnouncementsRepository } from './announcements.repository';

const log = createLogger('announcements');

/** The Announcements tab's list and the PDF reads (spec sections 2 and 5). */
@Injectable()
export class ReadAnnouncementsService {
  constructor(
    private readonly announcements: AnnouncementsRepository,
    private readonly stocks: StockProjectionService,
    private readonly storage: FileStorage,
  ) {}

  /**
   * A stock's announcements, newest first, with its latest initial poll: every one, or with `page.limit` a
   * page (after `page.after`, a previous page's `next`) and where the next one starts.
   */
  async list(
    actor: Actor,
    combinedTicker: string,
    includeDeleted: boolean,
    checkedStockId?: string,
    page: { limit?: number; after?: string } = {},
  ): Promise<{
    announcements: StoredAnnouncement[];
    initialPoll: InitialPollProgress | null;
    next: string | null;
  }> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    // The gateway checked the role on a stock: a ticker naming another one (a stale lookup) is not found.
    if (checkedStockId && stock.id !== checkedStockId)
      throw new AppError(ErrorCode.NotFound, `Stock ${stock.combinedTicker} not found`);
    // The Announcements tab's roles, and the test send's (its campaign is the latest announcement).
    requireStockRoleOf(
      actor,
      stock,
      [StockRole.EditAnnouncements, StockRole.SendMailchimp, StockRole.TestSendAnnouncement],
      'see its announcements',
    );
    const { limit, after } = page;
    // One more than the page: whether an older one follows.
    const rows =
      limit === undefined
        ? await this.announcements.ofStock(stock.id, { includeDeleted })
        : await this.announcements.pageOfStock(stock.id, { includeDeleted, limit: limit + 1, after });
    if (!rows)
      throw new AppError(ErrorCode.NotFound, AnnouncementRuleMessages.pageGone(stock.combinedTicker));
    const listed = limit === undefined ? { rows, next: null } : pageOfRows(rows, limit);
    const poll = await this.announcements.initialPollOf(stock.id);
    return {
      announcements: listed.rows.map(toAnnouncement),
      initialPoll: poll ? toInitialPollProgress(poll) : null,
      next: listed.next,
    };
  }

  /**
   * A chunk of a stored PDF, with the name a download gets. The route is public: a deleted announcement's
   * PDF is not found, as the announcement is for the widget.
   */
  /** The announcements.headlines request: another service's projection of these stocks' announcements. */
  async headlines(stockIds: readonly string[], since: string) {
    return { announcements: await this.announcements.headlines(stockIds, new Date(since)) };
  }

  async readFile(sendGuid: string, offset: number, length: number) {
    const e = await this.announcements.bySendGuid(sendGuid);
    if (!e || e.deletedOn) throw notFound(sendGuid);
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
}
