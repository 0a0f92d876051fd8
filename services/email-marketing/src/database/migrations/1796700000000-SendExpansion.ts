import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An announcement send by email is expanded in two steps (docs/adr/0019): its first batch with the send,
 * the rest in a message of its own. Until the rest is written the send is not `expanded`, so it is never
 * closed as finished while its first batch is all it has. Sends stored before were expanded in one step.
 */
export class SendExpansion1796700000000 implements MigrationInterface {
  name = 'SendExpansion1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.sends ADD COLUMN expanded boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.sends DROP COLUMN expanded`);
  }
}
