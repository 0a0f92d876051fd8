import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The priority lane (docs/adr/0016): a send of a price-sensitive announcement is marked, so its batches go on
 * `email.priority-deliveries-queued` and every sender sends its claims ahead of routine work. Sends stored
 * before take the flag from the announcement they carry.
 */
export class SendPriority1796600000000 implements MigrationInterface {
  name = 'SendPriority1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE email_marketing.sends ADD COLUMN price_sensitive boolean NOT NULL DEFAULT false`,
    );
    await q.query(
      `UPDATE email_marketing.sends SET price_sensitive = true
       WHERE kind = 'announcement' AND (message->'announcement'->>'priceSensitive')::boolean`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.sends DROP COLUMN price_sensitive`);
  }
}
