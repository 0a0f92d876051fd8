import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Announcement comments: investors' questions from the widget, screened for the moderator, with the
 * moderator's response. The stock projection gains the moderator emails and the comment template; its rows
 * are marked oldest so the next `stocks.list` bootstrap (or stock event) fills the new columns.
 */
export class AnnouncementComments1795500000000 implements MigrationInterface {
  name = 'AnnouncementComments1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE announcements.stocks
      ADD COLUMN moderator_email text NOT NULL DEFAULT '',
      ADD COLUMN announcement_comment_template text NOT NULL DEFAULT ''`);
    await q.query(`UPDATE announcements.stocks SET updated_at = '-infinity'`);
    await q.query(`
      CREATE TABLE announcements.comments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        guid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        announcement_id uuid NOT NULL REFERENCES announcements.announcements (id),
        stock_id uuid NOT NULL,
        name text NOT NULL,
        email text NOT NULL,
        comment text NOT NULL,
        flags jsonb NOT NULL DEFAULT '[]',
        is_public boolean NOT NULL DEFAULT false,
        response text,
        responded_at timestamptz,
        responded_by text,
        response_version int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX comments_stock ON announcements.comments (stock_id, created_at DESC)`);
    await q.query(
      `CREATE INDEX comments_announcement ON announcements.comments (announcement_id, created_at)`,
    );
    await q.query(`ALTER TABLE announcements.announcements
      ADD COLUMN num_public_comments int NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE announcements.announcements DROP COLUMN num_public_comments`);
    await q.query(`DROP TABLE announcements.comments`);
    await q.query(
      `ALTER TABLE announcements.stocks DROP COLUMN moderator_email, DROP COLUMN announcement_comment_template`,
    );
  }
}
