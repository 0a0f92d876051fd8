import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The preference centre (issue 36): what each subscriber chose to be mailed (every announcement, or the
 * price-sensitive ones only; every one of today's gets `all`, what they had), and until when the mails are
 * paused.
 */
export class SubscriptionPreferences1797000000000 implements MigrationInterface {
  name = 'SubscriptionPreferences1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE email_marketing.subscribers
         ADD COLUMN preference text NOT NULL DEFAULT 'all'
           CONSTRAINT subscribers_preference CHECK (preference IN ('all', 'price-sensitive')),
         ADD COLUMN paused_until timestamptz`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.subscribers DROP COLUMN paused_until, DROP COLUMN preference`);
  }
}
