import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InitialPollEntity } from '../initial-poll/initial-poll.entity';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';

/**
 * Stored announcements, for the use cases outside polling/ (edits, sends, widget, PDFs, tools); the only
 * place there that queries their table. Polling's own queries move into repositories with the polling
 * split (issue 17).
 */
@Injectable()
export class AnnouncementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(AnnouncementEntity);
  }

  /** A stock's announcements, newest first (release, then storage time, then id); `releasedBy`: none dated after it. */
  ofStock(
    stockId: string,
    {
      includeDeleted = false,
      limit,
      releasedBy,
    }: { includeDeleted?: boolean; limit?: number; releasedBy?: Date } = {},
  ): Promise<AnnouncementEntity[]> {
    const q = this.newestFirst(stockId, includeDeleted);
    if (releasedBy) q.andWhere('a.released_at <= :releasedBy', { releasedBy });
    if (limit !== undefined) q.limit(limit);
    return q.getMany();
  }

  /**
   * A page of a stock's announcements in ofStock's order: at most `limit`, those listed after the announcement
   * `after` when given (a page's continuation). Null when `after` is not an announcement of the stock.
   */
  async pageOfStock(
    stockId: string,
    { includeDeleted, limit, after }: { includeDeleted: boolean; limit: number; after?: string },
  ): Promise<AnnouncementEntity[] | null> {
    const q = this.newestFirst(stockId, includeDeleted).limit(limit);
    if (after) {
      if (!(await this.repo().exists({ where: { id: after, stockId } }))) return null;
      // Keyset: the rows ordered after the cursor's row, read along the (stock_id, released_at) index.
      q.andWhere(
        `(a.released_at, a.created_at, a.id) < (SELECT c.released_at, c.created_at, c.id FROM ${this.repo().metadata.tablePath} c WHERE c.id = :after)`,
        { after },
      );
    }
    return q.getMany();
  }

  private newestFirst(stockId: string, includeDeleted: boolean) {
    const q = this.repo().createQueryBuilder('a').where('a.stock_id = :stockId', { stockId });
    if (!includeDeleted) q.andWhere('a.deleted_on IS NULL');
    return q.orderBy('a.released_at', 'DESC').addOrderBy('a.created_at', 'DESC').addOrderBy('a.id', 'DESC');
  }

  /** Headlines of these stocks' announcements released since `since`, deleted ones too (other services' projections). */
  async headlines(
    stockIds: readonly string[],
    since: Date,
  ): Promise<
    {
      id: string;
      stockId: string;
      date: string;
      headline: string;
      priceSensitive: boolean;
      deleted: boolean;
    }[]
  > {
    const rows: {
      id: string;
      stock_id: string;
      released_at: Date;
      headline: string;
      price_sensitive: boolean;
      deleted: boolean;
    }[] = await this.dataSource.query(
      `SELECT id, stock_id, released_at, headline, price_sensitive, deleted_on IS NOT NULL AS deleted
         FROM announcements.announcements
        WHERE stock_id = ANY($1::uuid[]) AND released_at >= $2
        ORDER BY stock_id, released_at`,
      [stockIds, since],
    );
    return rows.map((r) => ({
      id: r.id,
      stockId: r.stock_id,
      date: new Date(r.released_at).toISOString(),
      headline: r.headline,
      priceSensitive: r.price_sensitive,
      deleted: r.deleted,
    }));
  }

  /** The stock's initial poll, if one ever ran (polling's table, read here for the Announcements tab). */
  initialPollOf(stockId: string): Promise<InitialPollEntity | null> {
    return this.dataSource.getRepository(InitialPollEntity).findOne({ where: { stockId } });
  }

  bySendGuid(sendGuid: string): Promise<AnnouncementEntity | null> {
    return this.repo().findOne({ where: { sendGuid } });
  }

  byId(id: string, tx?: Tx): Promise<AnnouncementEntity> {
    return this.repo(tx).findOneOrFail({ where: { id } });
  }

  /** A stock's announcement by sendGuid; with `lock`, locked for update until `tx` ends. */
  find(tx: Tx, stockId: string, sendGuid: string, lock = false): Promise<AnnouncementEntity | null> {
    return this.repo(tx).findOne({
      where: { stockId, sendGuid },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** A stock's announcements whose trimmed headline is this, released in [from, to). */
  withHeadlineBetween(tx: Tx, stockId: string, headline: string, from: Date, to: Date) {
    return this.repo(tx)
      .createQueryBuilder('a')
      .where('a.stock_id = :stockId', { stockId })
      .andWhere('btrim(a.headline) = :headline', { headline })
      .andWhere('a.released_at >= :from AND a.released_at < :to', { from, to })
      .getMany();
  }

  async insert(tx: Tx, values: Partial<AnnouncementEntity>): Promise<void> {
    await tx.insert(AnnouncementEntity, values);
  }

  async update(tx: Tx, id: string, values: Partial<AnnouncementEntity>): Promise<void> {
    await tx.update(AnnouncementEntity, { id }, values);
  }

  /**
   * One more widget hit of a stock's announcement (not deleted, not dated in the future), counted in one
   * statement so no opening is lost: the row's id and the count this hit made, or undefined when there is
   * no such announcement.
   */
  async countHit(stockId: string, sendGuid: string): Promise<{ id: string; hits: number } | undefined> {
    const [rows] = (await this.dataSource.query(
      `UPDATE announcements.announcements SET hits = hits + 1
        WHERE stock_id = $1 AND send_guid = $2 AND deleted_on IS NULL AND released_at <= now()
        RETURNING id, hits`,
      [stockId, sendGuid],
    )) as [Array<{ id: string; hits: number }>, number];
    return rows[0];
  }
}
