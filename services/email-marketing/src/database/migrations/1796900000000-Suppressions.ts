import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bounces and complaints (issue 36): `mail_events`, what receiving servers reported about the portal's mails
 * (a hard or soft bounce, a spam complaint; once per delivery and kind), and `suppressions`, the addresses
 * mailed no more for any stock, by lower-cased address, with why and since when.
 */
export class Suppressions1796900000000 implements MigrationInterface {
  name = 'Suppressions1796900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE email_marketing.mail_events (
         id bigserial PRIMARY KEY,
         delivery_id uuid,
         stock_id uuid,
         email text NOT NULL,
         kind text NOT NULL CHECK (kind IN ('hard-bounce', 'soft-bounce', 'complaint')),
         source text NOT NULL CHECK (source IN ('dsn', 'arf', 'smtp')),
         detail text NOT NULL DEFAULT '',
         occurred_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    // A report that arrives twice (a server that retries, a DSN and the SMTP reply of one mail) counts once.
    await q.query(
      `CREATE UNIQUE INDEX mail_events_delivery_kind ON email_marketing.mail_events (delivery_id, kind)
       WHERE delivery_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX mail_events_email ON email_marketing.mail_events (email, occurred_at)`);
    await q.query(`CREATE INDEX mail_events_stock ON email_marketing.mail_events (stock_id, occurred_at)`);
    await q.query(
      `CREATE TABLE email_marketing.suppressions (
         email text PRIMARY KEY CHECK (email = lower(email)),
         reason text NOT NULL CHECK (reason IN ('hard-bounce', 'soft-bounce', 'complaint')),
         detail text NOT NULL DEFAULT '',
         since timestamptz NOT NULL DEFAULT now()
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_marketing.suppressions`);
    await q.query(`DROP TABLE email_marketing.mail_events`);
  }
}
