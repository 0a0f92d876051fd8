import { AppError, createLogger, Outbox, Tx, UnitOfWork } from '@irp/platform';
import {
  Actor,
  CommentGroup,
  CommentResponse,
  CommentsResult,
  ErrorCode,
  Topics,
  WidgetCommentGroup,
} from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { CommentEntity } from './comment.entity';
import {
  applyResponse,
  checkCommentInput,
  CommentInput,
  CommentRuleMessages,
  requireReplyToComment,
} from './comment-rules';
import { CommentsRepository } from './comments.repository';
import { ListedCompany, screenComment } from './moderation';

const log = createLogger('comments');

/** The portal's stocks as "other listed companies" for the moderation screen, re-read at most this often. */
const LISTED_COMPANIES_TTL_MS = 60_000;

const notFound = () => new AppError(ErrorCode.NotFound, CommentRuleMessages.notFound);
const stockNotFound = (combinedTicker: string) =>
  new AppError(ErrorCode.NotFound, `Stock ${combinedTicker} not found`);

/**
 * Announcement comments (spec sections 2, 3, 7): investors post through the widget, each comment is
 * screened (moderation rules) and the stock's moderators are mailed; moderators respond, publicly or not,
 * and a public response is mailed to the commenter in the stock's comment template. A change, its counts
 * and the event it implies are written in one transaction (the outbox).
 */
@Injectable()
export class CommentsService {
  private listed?: { at: number; companies: ListedCompany[] };

  constructor(
    private readonly repo: CommentsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
  ) {}

  // -------------------------------------------------------------------------------------------------
  // The widget

  /** An investor's comment on one of the stock's announcements (not deleted): screened, stored, mailed. */
  async post(req: { stockId: string; sendGuid: string } & CommentInput): Promise<{ guid: string }> {
    const input = checkCommentInput(req);
    const stock = await this.stocks.byId(req.stockId);
    if (!stock) throw new AppError(ErrorCode.NotFound, `Stock ${req.stockId} not found`);
    const announcement = await this.repo.announcement(stock.id, req.sendGuid);
    if (!announcement || announcement.deletedOn)
      throw new AppError(ErrorCode.NotFound, CommentRuleMessages.announcementNotFound(req.sendGuid));
    const flags = screenComment(input.comment, {
      own: { ticker: stock.ticker, companyName: stock.companyName },
      listedCompanies: await this.listedCompanies(),
    });
    const guid = randomUUID();
    const createdAt = new Date();
    await this.units.run(async (m) => {
      await this.repo.insert(m, {
        guid,
        announcementId: announcement.id,
        stockId: stock.id,
        ...input,
        flags,
        isPublic: false,
        createdAt,
      });
      await this.repo.countOn(m, announcement.id, 'numComments', 1);
      await this.outbox.add(m, Topics.CommentPosted, stock.id, {
        guid,
        stock: mailStock(stock),
        announcement: mailAnnouncement(announcement),
        moderatorEmails: stock.moderatorEmail,
        ...input,
        flags,
        responsePath: `/AnnouncementCommentResponse/${guid}`,
        at: createdAt.toISOString(),
      });
    });
    log.info({ stockId: stock.id, guid, flags: flags.map((f) => f.rule) }, 'comment posted');
    return { guid };
  }

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

  // -------------------------------------------------------------------------------------------------
  // Moderation

  /** GET /api/AnnouncementComments: the ticker's comment groups, or one announcement's (spec section 2). */
  async groups(
    actor: Actor,
    combinedTicker: string,
    sendGuid?: string,
    checkedStockId?: string,
  ): Promise<CommentsResult> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    // The gateway checked the role on a stock: a ticker naming another one (a stale lookup) is not found.
    if (checkedStockId && stock.id !== checkedStockId) throw stockNotFound(stock.combinedTicker);
    requireReplyToComment(actor, stock);
    const rows = await this.repo.ofStock(stock.id, false);
    const groups = groupBy(rows, await this.announcementsOf(rows));
    const shown = sendGuid ? groups.filter((g) => g.announcement.sendGuid === sendGuid) : groups;
    return {
      combinedTicker: stock.combinedTicker,
      totalCommentGroups: groups.length,
      commentGroups: shown.map(({ announcement, comments }): CommentGroup => ({
        sendGuid: announcement.sendGuid,
        announcementHeadline: announcement.headline,
        announcementDate: announcement.releasedAt.toISOString(),
        comments: comments.map((c) => ({
          announcementCommentEventGuid: c.guid,
          date: c.createdAt.toISOString(),
          name: c.name,
          comment: c.comment,
          isPublic: c.isPublic,
          flags: c.flags,
          responses: responsesOf(c),
        })),
      })),
    };
  }

  /** One comment for the response page, with its stock's id (the gateway checks the caller's role on it). */
  async get(guid: string, checkedStockId?: string): Promise<{ stockId: string; comment: CommentResponse }> {
    const comment = await this.repo.byGuid(guid);
    if (!comment || (checkedStockId && comment.stockId !== checkedStockId)) throw notFound();
    return { stockId: comment.stockId, comment: await this.view(comment) };
  }

  /** A moderator's response (spec section 2); a public one with new text is mailed to the commenter. */
  async respond(req: { actor: Actor; guid: string; comment: string; isPublic: boolean }) {
    const result = await this.units.run(async (m) => {
      const comment = await this.repo.lockByGuid(m, req.guid);
      if (!comment) throw notFound();
      const stock = await this.repo.stock(m, comment.stockId);
      requireReplyToComment(req.actor, stock);
      const change = applyResponse(comment, { comment: req.comment, isPublic: req.isPublic }, new Date());
      await this.repo.update(m, comment.id, {
        isPublic: change.isPublic,
        response: change.response,
        respondedAt: change.respondedAt,
        respondedBy: change.response === null ? null : req.actor.username,
        responseVersion: change.responseVersion,
      });
      if (change.publicDelta)
        await this.repo.countOn(m, comment.announcementId, 'numPublicComments', change.publicDelta);
      const updated = await this.repo.byId(m, comment.id);
      if (change.mailCommenter) await this.publishResponded(m, updated, stock);
      return updated;
    });
    log.info({ guid: req.guid, isPublic: result.isPublic, by: req.actor.username }, 'comment response saved');
    return { stockId: result.stockId, comment: await this.view(result) };
  }

  private async publishResponded(m: Tx, c: CommentEntity, stock: StockProjectionEntity) {
    const announcement = await this.repo.announcementById(c.announcementId, m);
    await this.outbox.add(m, Topics.CommentResponded, stock.id, {
      guid: c.guid,
      version: c.responseVersion,
      stock: mailStock(stock),
      announcement: mailAnnouncement(announcement),
      template: stock.announcementCommentTemplate,
      name: c.name,
      email: c.email,
      comment: c.comment,
      response: c.response ?? '',
      at: (c.respondedAt ?? new Date()).toISOString(),
    });
  }

  private async view(c: CommentEntity): Promise<CommentResponse> {
    const announcement = await this.repo.announcementById(c.announcementId);
    const stock = await this.stocks.byId(c.stockId);
    return {
      guid: c.guid,
      combinedTicker: stock?.combinedTicker ?? '',
      sendGuid: announcement.sendGuid,
      announcementHeadline: announcement.headline,
      announcementDate: announcement.releasedAt.toISOString(),
      created: c.createdAt.toISOString(),
      isPublic: c.isPublic,
      request: { name: c.name, email: c.email, comment: c.comment },
      response:
        c.response !== null && c.respondedAt
          ? { comment: c.response, date: c.respondedAt.toISOString() }
          : null,
      flags: c.flags,
    };
  }

  private async announcementsOf(rows: CommentEntity[]): Promise<Map<string, AnnouncementEntity>> {
    const ids = [...new Set(rows.map((r) => r.announcementId))];
    if (!ids.length) return new Map();
    const found = await this.repo.announcementsByIds(ids);
    return new Map(found.map((a) => [a.id, a]));
  }

  /** The portal's stocks (other than archived ones) as listed companies the screen recognises. */
  private async listedCompanies(): Promise<ListedCompany[]> {
    if (this.listed && Date.now() - this.listed.at < LISTED_COMPANIES_TTL_MS) return this.listed.companies;
    const companies = await this.repo.listedCompanies();
    this.listed = { at: Date.now(), companies };
    return companies;
  }
}

const mailStock = (s: StockProjectionEntity) => ({
  id: s.id,
  ticker: s.ticker,
  combinedTicker: s.combinedTicker,
  companyName: s.companyName,
});

const mailAnnouncement = (a: AnnouncementEntity) => ({
  sendGuid: a.sendGuid,
  headline: a.headline,
  date: a.releasedAt.toISOString(),
});

const responsesOf = (c: CommentEntity) =>
  c.response !== null && c.respondedAt ? [{ comment: c.response, date: c.respondedAt.toISOString() }] : [];

/** Comments grouped by announcement, newest announcement first; each group keeps the rows' order. */
function groupBy(rows: CommentEntity[], announcements: Map<string, AnnouncementEntity>) {
  const groups = new Map<string, { announcement: AnnouncementEntity; comments: CommentEntity[] }>();
  for (const row of rows) {
    const announcement = announcements.get(row.announcementId);
    if (!announcement) continue;
    const group = groups.get(announcement.id) ?? { announcement, comments: [] };
    group.comments.push(row);
    groups.set(announcement.id, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.announcement.releasedAt.getTime() - a.announcement.releasedAt.getTime(),
  );
}

function toWidgetGroup(announcement: AnnouncementEntity, rows: CommentEntity[]): WidgetCommentGroup {
  return {
    sendGuid: announcement.sendGuid,
    announcementHeadline: announcement.headline,
    announcementDate: announcement.releasedAt.toISOString(),
    comments: rows.map((c) => ({
      guid: c.guid,
      date: c.createdAt.toISOString(),
      name: c.name,
      comment: c.comment,
      responses: responsesOf(c),
    })),
  };
}
