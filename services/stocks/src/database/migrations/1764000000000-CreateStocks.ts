import { createOutboxTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStocks1764000000000 implements MigrationInterface {
  name = 'CreateStocks1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE stocks.stocks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        ticker text NOT NULL CHECK (ticker ~ '^[A-Z0-9]{3,}$'),
        exchange text NOT NULL CHECK (exchange IN ('ASX', 'LSE', 'FSE', 'OTC')),
        isin text NOT NULL DEFAULT '',
        company_name text NOT NULL DEFAULT '',
        created timestamptz NOT NULL DEFAULT now(),
        archived boolean NOT NULL DEFAULT false,
        poll_asx boolean NOT NULL DEFAULT false,
        initial_poll_completed boolean NOT NULL DEFAULT false,
        initial_poll_at timestamptz,
        send_price_sensitive_announcements boolean NOT NULL DEFAULT false,
        send_non_price_sensitive_announcements boolean NOT NULL DEFAULT false,
        auto_send_announcement_email boolean NOT NULL DEFAULT false,
        auto_send_non_price_sensitive_announcements boolean NOT NULL DEFAULT false,
        auto_send_filter text NOT NULL DEFAULT '',
        announcement_start_year int NOT NULL,
        confirmation_email text NOT NULL DEFAULT '',
        moderator_email text NOT NULL DEFAULT '',
        contact_email text NOT NULL DEFAULT '',
        billing_date timestamptz NOT NULL,
        website_url text NOT NULL DEFAULT '',
        api_key text,
        announcement_notification_emails text NOT NULL DEFAULT '',
        accounting_reference text NOT NULL DEFAULT '',
        subscription_expired boolean NOT NULL DEFAULT false,
        company_logo_url text NOT NULL DEFAULT '',
        announcement_comment_template text NOT NULL DEFAULT '',
        disable_market_data boolean NOT NULL DEFAULT false,
        version int NOT NULL DEFAULT 1,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX stocks_ticker_exchange_unique ON stocks.stocks (ticker, exchange)`);
    // The widget API finds a stock by key on every page view of a client site.
    await q.query(
      `CREATE UNIQUE INDEX stocks_api_key_unique ON stocks.stocks (api_key) WHERE api_key IS NOT NULL`,
    );
    await q.query(`CREATE INDEX stocks_created ON stocks.stocks (created DESC, id)`);
    await q.query(`
      CREATE TABLE stocks.stock_versions (
        stock_id uuid NOT NULL REFERENCES stocks.stocks(id) ON DELETE CASCADE,
        version_id int NOT NULL,
        changed_on timestamptz NOT NULL DEFAULT now(),
        changed_by text NOT NULL,
        changes jsonb NOT NULL,
        PRIMARY KEY (stock_id, version_id)
      )`);
    await q.query(`
      CREATE TABLE stocks.notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        stock_id uuid NOT NULL REFERENCES stocks.stocks(id) ON DELETE CASCADE,
        date timestamptz NOT NULL DEFAULT now(),
        "user" text NOT NULL,
        details text NOT NULL
      )`);
    await q.query(`CREATE INDEX notes_stock_date ON stocks.notes (stock_id, date DESC)`);
    await q.query(`
      CREATE TABLE stocks.referers (
        stock_id uuid NOT NULL REFERENCES stocks.stocks(id) ON DELETE CASCADE,
        url text NOT NULL,
        count int NOT NULL DEFAULT 1,
        first timestamptz NOT NULL DEFAULT now(),
        last timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (stock_id, url)
      )`);
    await q.query(`
      CREATE TABLE stocks.api_hits (
        stock_id uuid NOT NULL REFERENCES stocks.stocks(id) ON DELETE CASCADE,
        day date NOT NULL,
        count bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (stock_id, day)
      )`);
    await createOutboxTable(q, 'stocks');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTable(q, 'stocks');
    await q.query(`DROP TABLE stocks.api_hits`);
    await q.query(`DROP TABLE stocks.referers`);
    await q.query(`DROP TABLE stocks.notes`);
    await q.query(`DROP TABLE stocks.stock_versions`);
    await q.query(`DROP TABLE stocks.stocks`);
  }
}
