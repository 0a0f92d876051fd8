import { createOutboxTable, createStockProjectionTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The announcements schema: the stock projection, announcements, staged uploads, settings, polls, reconciles. */
export class CreateAnnouncements1795468640785 implements MigrationInterface {
  name = 'CreateAnnouncements1795468640785';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTable(q, 'announcements');
    await createStockProjectionTable(q, 'announcements', [
      `company_name text NOT NULL DEFAULT ''`,
      `website_url text NOT NULL DEFAULT ''`,
      'api_key text',
      'archived boolean NOT NULL DEFAULT false',
      'poll_asx boolean NOT NULL DEFAULT false',
      'completed_initial_poll boolean NOT NULL DEFAULT true',
      'subscription_expired boolean NOT NULL DEFAULT false',
      'announcement_start_year int NOT NULL',
      'send_price_sensitive_announcements boolean NOT NULL DEFAULT false',
      'send_non_price_sensitive_announcements boolean NOT NULL DEFAULT false',
      'auto_send_announcement_email boolean NOT NULL DEFAULT false',
      'auto_send_non_price_sensitive_announcements boolean NOT NULL DEFAULT false',
      `auto_send_filter text NOT NULL DEFAULT ''`,
      `confirmation_email text NOT NULL DEFAULT ''`,
      `announcement_notification_emails text NOT NULL DEFAULT ''`,
    ]);
    // Not unique: events of different stocks travel on different partitions, so a ticker freed by one stock's
    // change may arrive taken by another before the change itself arrives. Lookups take the newest row.
    await q.query(
      `CREATE INDEX stocks_combined_ticker ON announcements.stocks (combined_ticker, updated_at DESC)`,
    );
    await q.query(
      `CREATE INDEX stocks_polled ON announcements.stocks (ticker) WHERE poll_asx AND NOT archived`,
    );

    await q.query(`
      CREATE TABLE announcements.announcements (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        stock_id uuid NOT NULL,
        send_guid uuid NOT NULL DEFAULT gen_random_uuid(),
        source_key text NOT NULL,
        headline text NOT NULL,
        headline_original text,
        released_at timestamptz NOT NULL,
        price_sensitive boolean NOT NULL DEFAULT false,
        remote_path text NOT NULL DEFAULT '',
        local_path text,
        file_status text NOT NULL DEFAULT 'none',
        file_problem text,
        file_size bigint,
        file_sha256 text,
        video_url text NOT NULL DEFAULT '',
        video_description text NOT NULL DEFAULT '',
        thumbnail_page_num int,
        sent boolean NOT NULL DEFAULT false,
        send_history jsonb NOT NULL DEFAULT '[]',
        send_requested_at timestamptz,
        num_comments int NOT NULL DEFAULT 0,
        hits int NOT NULL DEFAULT 0,
        deleted_on timestamptz,
        origin text NOT NULL,
        auto_send text,
        auto_send_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT announcements_natural_key UNIQUE (stock_id, source_key),
        CONSTRAINT announcements_send_guid UNIQUE (send_guid)
      )`);
    await q.query(
      `CREATE INDEX announcements_by_stock ON announcements.announcements (stock_id, released_at DESC)`,
    );
    await q.query(
      `CREATE INDEX announcements_pending_files ON announcements.announcements (stock_id) WHERE file_status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX announcements_auto_sent ON announcements.announcements (stock_id, auto_send_at) WHERE auto_send = 'requested'`,
    );

    await q.query(`
      CREATE TABLE announcements.upload_parts (
        upload_id uuid NOT NULL,
        index int NOT NULL,
        data bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (upload_id, index)
      )`);

    await q.query(`
      CREATE TABLE announcements.system_settings (
        id int PRIMARY KEY CHECK (id = 1),
        announcement_service text NOT NULL,
        error_email text NOT NULL DEFAULT '',
        hourly_auto_send_limit int NOT NULL,
        daily_auto_send_limit int NOT NULL,
        disable_poll_until timestamptz,
        use_nightmare boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text NOT NULL DEFAULT ''
      )`);

    await q.query(`
      CREATE TABLE announcements.initial_polls (
        stock_id uuid PRIMARY KEY,
        run_id uuid NOT NULL,
        status text NOT NULL,
        from_year int NOT NULL,
        to_year int NOT NULL,
        current_year int,
        found int NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL,
        completed_at timestamptz,
        error text
      )`);

    await q.query(`
      CREATE TABLE announcements.source_health (
        source text PRIMARY KEY,
        failure_streak int NOT NULL DEFAULT 0,
        first_failure_at timestamptz,
        last_error text,
        reported_at timestamptz,
        last_success_at timestamptz
      )`);

    await q.query(`
      CREATE TABLE announcements.reconciles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        num_days int NOT NULL,
        status text NOT NULL,
        checked int NOT NULL DEFAULT 0,
        total int NOT NULL DEFAULT 0,
        findings jsonb NOT NULL DEFAULT '[]',
        applied int,
        error text,
        started_by text NOT NULL DEFAULT '',
        started_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'reconciles',
      'source_health',
      'initial_polls',
      'system_settings',
      'upload_parts',
      'announcements',
      'stocks',
    ]) {
      await q.query(`DROP TABLE IF EXISTS announcements.${table}`);
    }
    await dropOutboxTable(q, 'announcements');
  }
}
