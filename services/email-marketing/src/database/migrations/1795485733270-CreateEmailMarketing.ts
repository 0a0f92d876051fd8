import { createOutboxTable, createStockProjectionTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The email_marketing schema: the stock projection, email-marketing settings, subscribers (double opt-in
 * with consent evidence), subscribe attempts (rate limits), sends and their deliveries (each claimed before
 * SMTP and marked after the server accepts it), and the outbox.
 */
export class CreateEmailMarketing1795485733270 implements MigrationInterface {
  name = 'CreateEmailMarketing1795485733270';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTable(q, 'email_marketing');
    await createStockProjectionTable(q, 'email_marketing', [
      `company_name text NOT NULL DEFAULT ''`,
      'api_key text',
      `company_logo_url text NOT NULL DEFAULT ''`,
      `confirmation_email text NOT NULL DEFAULT ''`,
      `announcement_notification_emails text NOT NULL DEFAULT ''`,
      'archived boolean NOT NULL DEFAULT false',
    ]);
    await q.query(
      `CREATE INDEX stocks_api_key ON email_marketing.stocks (api_key) WHERE api_key IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE email_marketing.settings (
        stock_id uuid PRIMARY KEY,
        provider text NOT NULL,
        list_id text NOT NULL DEFAULT '',
        api_key text NOT NULL DEFAULT '',
        template_id text NOT NULL DEFAULT '',
        reply_to text NOT NULL DEFAULT '',
        from_name text NOT NULL DEFAULT '',
        saved_segment_id text NOT NULL DEFAULT '',
        client_id text NOT NULL DEFAULT '',
        test_email_addresses text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text NOT NULL DEFAULT ''
      )`);
    await q.query(`
      CREATE TABLE email_marketing.subscribers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        stock_id uuid NOT NULL,
        email text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        subscribed_at timestamptz NOT NULL DEFAULT now(),
        consent_ip text NOT NULL DEFAULT '',
        consent_user_agent text NOT NULL DEFAULT '',
        confirmed_at timestamptz,
        unsubscribed_at timestamptz,
        confirm_token_hash text,
        confirm_token_expires_at timestamptz,
        unsubscribe_token text NOT NULL UNIQUE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX subscribers_stock_email ON email_marketing.subscribers (stock_id, lower(email))`,
    );
    await q.query(
      `CREATE INDEX subscribers_confirmed ON email_marketing.subscribers (stock_id) WHERE status = 'confirmed'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX subscribers_confirm_token ON email_marketing.subscribers (confirm_token_hash)
       WHERE confirm_token_hash IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE email_marketing.subscribe_attempts (
        id bigserial PRIMARY KEY,
        email text NOT NULL,
        ip text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX subscribe_attempts_email ON email_marketing.subscribe_attempts (email, at)`);
    await q.query(`CREATE INDEX subscribe_attempts_ip ON email_marketing.subscribe_attempts (ip, at)`);
    await q.query(`
      CREATE TABLE email_marketing.sends (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        request_key text NOT NULL UNIQUE,
        kind text NOT NULL,
        channel text NOT NULL,
        stock_id uuid,
        send_guid uuid,
        auto boolean NOT NULL DEFAULT false,
        status text NOT NULL,
        message jsonb NOT NULL,
        released_at timestamptz,
        requested_at timestamptz NOT NULL DEFAULT now(),
        first_accepted_at timestamptz,
        alert_latency_ms integer,
        campaign_id text,
        preview_url text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX sends_auto ON email_marketing.sends (stock_id, created_at) WHERE auto AND status <> 'held'`,
    );
    await q.query(`
      CREATE TABLE email_marketing.deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        send_id uuid NOT NULL REFERENCES email_marketing.sends(id) ON DELETE CASCADE,
        subscriber_id uuid,
        email text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'skipped')),
        attempts integer NOT NULL DEFAULT 0,
        not_before timestamptz NOT NULL DEFAULT now(),
        queued_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        claimed_by text,
        accepted_at timestamptz,
        message_id text,
        last_error text,
        reported boolean NOT NULL DEFAULT false,
        UNIQUE (send_id, email)
      )`);
    await q.query(
      `CREATE INDEX deliveries_open ON email_marketing.deliveries (status, not_before)
       WHERE status IN ('queued', 'sending')`,
    );
    await q.query(
      `CREATE INDEX deliveries_unreported ON email_marketing.deliveries (send_id) WHERE status = 'sent' AND NOT reported`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['deliveries', 'sends', 'subscribe_attempts', 'subscribers', 'settings', 'stocks']) {
      await q.query(`DROP TABLE IF EXISTS email_marketing.${table}`);
    }
    await dropOutboxTable(q, 'email_marketing');
  }
}
