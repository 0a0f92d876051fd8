import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { CommentEntity } from './comment.entity';

/**
 * Announcement comments, and what they read and count on their announcements and stocks; the only place
 * that queries the comments table.
 */
@Injectable()
export class CommentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private comments(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(CommentEntity);
  }

  private announcements(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(AnnouncementEntity);
  }

  async insert(tx: Tx, comment: Partial<CommentEntity>): Promise<void> {
    await tx.insert(CommentEntity, comment);
  }

  byGuid(guid: string): Promise<CommentEntity | null> {
    return this.comments().findOne({ where: { guid } });
  }

  /** A comment locked for update until `tx` ends. */
  lockByGuid(tx: Tx, guid: string): Promise<CommentEntity | null> {
    return this.comments(tx).findOne({ where: { guid }, lock: { mode: 'pessimistic_write' } });
  }

  byId(tx: Tx, id: string): Promise<CommentEntity> {
    return this.comments(tx).findOneOrFail({ where: { id } });
  }

  async update(tx: Tx, id: string, values: Partial<CommentEntity>): Promise<void> {
    await tx.update(CommentEntity, { id }, values);
  }

  /** Newest first; only the public ones with `publicOnly`. */
  ofAnnouncement(announcementId: string, publicOnly: boolean): Promise<CommentEntity[]> {
    return this.comments().find({
      where: { announcementId, ...(publicOnly ? { isPublic: true } : {}) },
      order: { createdAt: 'DESC' },
    });
  }

  /** A stock's comments, newest first; only the public ones with `publicOnly`. */
  ofStock(stockId: string, publicOnly: boolean): Promise<CommentEntity[]> {
    return this.comments().find({
      where: { stockId, ...(publicOnly ? { isPublic: true } : {}) },
      order: { createdAt: 'DESC' },
    });
  }

  /** The announcement commented on, by its stock and sendGuid. */
  announcement(stockId: string, sendGuid: string): Promise<AnnouncementEntity | null> {
    return this.announcements().findOne({ where: { stockId, sendGuid } });
  }

  announcementById(id: string, tx?: Tx): Promise<AnnouncementEntity> {
    return this.announcements(tx).findOneOrFail({ where: { id } });
  }

  announcementsByIds(ids: string[]): Promise<AnnouncementEntity[]> {
    return this.announcements().find({ where: { id: In(ids) } });
  }

  /** Adds `delta` to an announcement's count of comments, or of public comments. */
  async countOn(
    tx: Tx,
    announcementId: string,
    count: 'numComments' | 'numPublicComments',
    delta: number,
  ): Promise<void> {
    await tx.increment(AnnouncementEntity, { id: announcementId }, count, delta);
  }

  /** The projected stock of a comment, read in `tx`. */
  stock(tx: Tx, id: string): Promise<StockProjectionEntity> {
    return tx.findOneOrFail(StockProjectionEntity, { where: { id } });
  }

  /** The portal's ASX stocks other than archived ones (as the moderation screen's listed companies). */
  async listedCompanies(): Promise<Array<Pick<StockProjectionEntity, 'ticker' | 'companyName'>>> {
    return this.dataSource.query(
      `SELECT DISTINCT ticker, company_name AS "companyName" FROM announcements.stocks
       WHERE NOT archived AND exchange = 'ASX'`,
    );
  }
}
