import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The index that counted a stock's automatic sends for the auto-send limits. Announcements owns those
 * limits now (one owner per fact, issue 17), so nothing here reads it.
 */
export class DropAutoSendIndex1795700000000 implements MigrationInterface {
  name = 'DropAutoSendIndex1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS email_marketing.sends_auto`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS sends_auto ON email_marketing.sends (stock_id, created_at) WHERE auto AND status <> 'held'`,
    );
  }
}
