import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A session's absolute end (issue 18): refreshes rotate tokens but never move it. Existing sessions end
 * 30 days after they began.
 */
export class SessionAbsoluteExpiry1764200000000 implements MigrationInterface {
  name = 'SessionAbsoluteExpiry1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users.sessions ADD COLUMN absolute_expires_at timestamptz`);
    await q.query(`UPDATE users.sessions SET absolute_expires_at = created_at + interval '30 days'`);
    await q.query(`ALTER TABLE users.sessions ALTER COLUMN absolute_expires_at SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users.sessions DROP COLUMN absolute_expires_at`);
  }
}
