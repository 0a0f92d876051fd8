import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AutoSendDecision } from './auto-send-rules';

/** What an auto-send decision reads and writes, all in the caller's transaction but `filterFacts`. */
@Injectable()
export class AutoSendRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The headline and the stock's filter of an announcement not decided yet, read without a transaction or
   * a lock, to match them before one; null once it is decided.
   */
  async filterFacts(
    stockId: string,
    announcementId: string,
  ): Promise<{ headline: string; filter: string } | null> {
    const [facts] = (await this.dataSource.query(
      `SELECT a.headline, s.auto_send_filter AS filter
         FROM announcements.announcements a JOIN announcements.stocks s ON s.id = a.stock_id
         WHERE a.id = $1 AND s.id = $2 AND a.auto_send IS NULL`,
      [announcementId, stockId],
    )) as Array<{ headline: string; filter: string | null }>;
    return facts ? { headline: facts.headline, filter: facts.filter ?? '' } : null;
  }

  /** The stock's projection row, locked: decisions of one stock are taken one after the other. */
  async lockStock(tx: Tx, stockId: string): Promise<StockProjectionEntity | null> {
    return tx
      .getRepository(StockProjectionEntity)
      .findOne({ where: { id: stockId }, lock: { mode: 'pessimistic_write' } });
  }

  async announcement(tx: Tx, id: string): Promise<AnnouncementEntity | null> {
    return tx.getRepository(AnnouncementEntity).findOne({ where: { id } });
  }

  async announcementOrFail(tx: Tx, id: string): Promise<AnnouncementEntity> {
    return tx.getRepository(AnnouncementEntity).findOneByOrFail({ id });
  }

  /** The stock's automatic sends requested in the last hour and the last day. */
  async recentSends(tx: Tx, stockId: string): Promise<{ hour: number; day: number }> {
    const [counts] = (await tx.query(
      `SELECT count(*) FILTER (WHERE auto_send_at > now() - interval '1 hour')::int AS hour, count(*)::int AS day
         FROM announcements.announcements
         WHERE stock_id = $1 AND auto_send = 'requested' AND auto_send_at > now() - interval '1 day'`,
      [stockId],
    )) as Array<{ hour: number; day: number }>;
    return counts;
  }

  /** The conditional write that makes the decision once: false when another one was recorded first. */
  async markDecided(tx: Tx, id: string, decision: AutoSendDecision): Promise<boolean> {
    const now = new Date();
    const requested = decision.state === 'requested';
    const [, affected] = (await tx.query(
      `UPDATE announcements.announcements
       SET auto_send = $2, auto_send_at = $3, send_requested_at = COALESCE($3, send_requested_at), updated_at = now()
       WHERE id = $1 AND auto_send IS NULL`,
      [id, decision.state, requested ? now : null],
    )) as [unknown, number];
    return affected === 1;
  }
}
