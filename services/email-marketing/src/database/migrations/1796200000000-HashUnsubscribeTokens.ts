import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Unsubscribe tokens leave the table (issue 18): links are now derived from the subscriber's id with an
 * HMAC (subscribers/unsubscribe-tokens.ts). The tokens in mails already sent keep working, kept only as
 * their sha256 (hex of the token's UTF-8 bytes, as legacyTokenHash computes it).
 */
export class HashUnsubscribeTokens1796200000000 implements MigrationInterface {
  name = 'HashUnsubscribeTokens1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.subscribers ADD COLUMN legacy_unsubscribe_token_hash text`);
    await q.query(
      `UPDATE email_marketing.subscribers
       SET legacy_unsubscribe_token_hash = encode(sha256(convert_to(unsubscribe_token, 'UTF8')), 'hex')`,
    );
    await q.query(
      `CREATE UNIQUE INDEX subscribers_legacy_unsubscribe ON email_marketing.subscribers (legacy_unsubscribe_token_hash)`,
    );
    await q.query(`ALTER TABLE email_marketing.subscribers DROP COLUMN unsubscribe_token`);
  }

  /** Back to stored tokens: new random ones (links in mails sent since stop working; there is no way back to them). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE email_marketing.subscribers ADD COLUMN unsubscribe_token text NOT NULL UNIQUE
       DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`,
    );
    await q.query(`ALTER TABLE email_marketing.subscribers ALTER COLUMN unsubscribe_token DROP DEFAULT`);
    await q.query(`DROP INDEX email_marketing.subscribers_legacy_unsubscribe`);
    await q.query(`ALTER TABLE email_marketing.subscribers DROP COLUMN legacy_unsubscribe_token_hash`);
  }
}
