import { createLogger, Outbox, Tx, UnitOfWork } from '@irp/platform';
import { Actor, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { CommentEntity } from './comment.entity';
import { commentNotFound, CommentReads } from './comment-reads';
import { applyResponse, requireReplyToComment } from './comment-rules';
import { mailAnnouncement, mailStock } from './comment-views';
import { CommentsRepository } from './comments.repository';

const log = createLogger('comments');

/**
 * A moderator's response (spec section 2), public or not; a public one with new text is mailed to the
 * commenter in the stock's comment template. The change, its count and `comment.responded` are written in
 * one transaction (the outbox).
 */
@Injectable()
export class RespondToComment {
  constructor(
    private readonly repo: CommentsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly reads: CommentReads,
  ) {}

  async respond(req: { actor: Actor; guid: string; comment: string; isPublic: boolean }) {
    const result = await this.units.run(async (m) => {
      const comment = await this.repo.lockByGuid(m, req.guid);
      if (!comment) throw commentNotFound();
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
    return { stockId: result.stockId, comment: await this.reads.responseView(result) };
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
}
