import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stock's subscribers newest first, as the staff list pages them (issue 35, proto's common/paging.ts): a
 * page after a cursor is read along this index instead of sorting the stock's tens of thousands each time.
 */
export class SubscribersNewestFirst1796800000000 implements MigrationInterface {
  name = 'SubscribersNewestFirst1796800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX subscribers_stock_newest ON email_marketing.subscribers (stock_id, subscribed_at DESC, email)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX email_marketing.subscribers_stock_newest`);
  }
}
