import { AppError } from '@irp/platform';
import { Actor, CommentResponse, CommentsResult, ErrorCode, WidgetCommentGroup } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import type { CommentEntity } from './comment.entity';
import { CommentRuleMessages, requireReplyToComment } from './comment-rules';
import { groupBy, toCommentGroup, toCommentResponse, toWidgetGroup } from './comment-views';
import { CommentsRepository } from './comments.repository';

export const commentNotFound = () => new AppError(ErrorCode.NotFound, CommentRuleMessages.notFound);

/** The comments the widget shows and the moderators' screen and response page read (spec sections 2, 7). */
@Injectable()
export class CommentReads {
  constructor(
    private readonly repo: CommentsRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  /** The public comments of one announcement, with their responses (the widget's listing). */
  async widgetList(stockId: string, sendGuid: string): Promise<WidgetCommentGroup> {
    const announcement = await this.repo.announcement(stockId, sendGuid);
    if (!announcement || announcement.deletedOn)
      throw new AppError(ErrorCode.NotFound, CommentRuleMessages.announcementNotFound(sendGuid));
    const rows = await this.repo.ofAnnouncement(announcement.id, true);
    return toWidgetGroup(announcement, rows);
  }

  /** The stock's public comment groups, newest announcement first (the interactive announcements widget). */
  async widgetGroups(stockId: string): Promise<WidgetCommentGroup[]> {
    const rows = await this.repo.ofStock(stockId, true);
    const announcements = await this.announcementsOf(rows);
    return groupBy(rows, announcements)
      .filter(({ announcement }) => !announcement.deletedOn)
      .map(({ announcement, comments }) => toWidgetGroup(announcement, comments));
  }

  /** GET /api/AnnouncementComments: the ticker's comment groups, or one announcement's (spec section 2). */
  async groups(
    actor: Actor,
    combinedTicker: string,
    sendGuid?: string,
    checkedStockId?: string,
  ): Promise<CommentsResult> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    // The gateway checked the role on a stock: a ticker naming another one (a stale lookup) is not found.
    if (checkedStockId && stock.id !== checkedStockId)
      throw new AppError(ErrorCode.NotFound, `Stock ${stock.combinedTicker} not found`);
    requireReplyToComment(actor, stock);
    const rows = await this.repo.ofStock(stock.id, false);
    const groups = groupBy(rows, await this.announcementsOf(rows));
    const shown = sendGuid ? groups.filter((g) => g.announcement.sendGuid === sendGuid) : groups;
    return {
      combinedTicker: stock.combinedTicker,
      totalCommentGroups: groups.length,
      commentGroups: shown.map(({ announcement, comments }) => toCommentGroup(announcement, comments)),
    };
  }

  /** One comment for the response page, with its stock's id (the gateway checks the caller's role on it). */
  async get(guid: string, checkedStockId?: string): Promise<{ stockId: string; comment: CommentResponse }> {
    const comment = await this.repo.byGuid(guid);
    if (!comment || (checkedStockId && comment.stockId !== checkedStockId)) throw commentNotFound();
    return { stockId: comment.stockId, comment: await this.responseView(comment) };
  }

  /** A comment as the response page shows it, its announcement and stock read. */
  async responseView(c: CommentEntity): Promise<CommentResponse> {
    const announcement = await this.repo.announcementById(c.announcementId);
    return toCommentResponse(c, announcement, await this.stocks.byId(c.stockId));
  }

  private async announcementsOf(rows: CommentEntity[]): Promise<Map<string, AnnouncementEntity>> {
    const ids = [...new Set(rows.map((r) => r.announcementId))];
    if (!ids.length) return new Map();
    const found = await this.repo.announcementsByIds(ids);
    return new Map(found.map((a) => [a.id, a]));
  }
}
