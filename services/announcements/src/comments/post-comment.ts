import { AppError, createLogger, Outbox, UnitOfWork } from '@irp/platform';
import { ErrorCode, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { checkCommentInput, CommentInput, CommentRuleMessages } from './comment-rules';
import { mailAnnouncement, mailStock } from './comment-views';
import { CommentsRepository } from './comments.repository';
import { ListedCompany, screenComment } from './moderation';

const log = createLogger('comments');

/** The portal's stocks as "other listed companies" for the moderation screen, re-read at most this often. */
const LISTED_COMPANIES_TTL_MS = 60_000;

/**
 * An investor's comment through the widget (spec sections 2, 3, 7): screened (moderation rules), stored,
 * and the stock's moderators mailed. The comment, its announcement's count and `comment.posted` are
 * written in one transaction (the outbox).
 */
@Injectable()
export class PostComment {
  private listed?: { at: number; companies: ListedCompany[] };

  constructor(
    private readonly repo: CommentsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly stocks: StockProjectionService,
  ) {}

  /** A comment on one of the stock's announcements (not deleted). */
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

  /** The portal's stocks (other than archived ones) as listed companies the screen recognises. */
  private async listedCompanies(): Promise<ListedCompany[]> {
    if (this.listed && Date.now() - this.listed.at < LISTED_COMPANIES_TTL_MS) return this.listed.companies;
    const companies = await this.repo.listedCompanies();
    this.listed = { at: Date.now(), companies };
    return companies;
  }
}
