import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public regenerations (the report page's date-range form) are bounded: each names the staff report it
 * searches (`parent_guid`, the root even when regenerated from a regeneration) and when it goes
 * (`expires_at`, pruned by the singleton job `reports:prune-regenerations`). One regeneration per parent and
 * range (a unique index): the same search again answers the stored one, also under concurrency. Staff
 * reports have neither.
 */
export class BoundPublicRegenerations1796600000000 implements MigrationInterface {
  name = 'BoundPublicRegenerations1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE reports.reports ADD COLUMN parent_guid text, ADD COLUMN expires_at timestamptz`,
    );
    await q.query(
      `CREATE UNIQUE INDEX reports_regeneration_range ON reports.reports (parent_guid, start_date, end_date)
       WHERE parent_guid IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX reports_expires_at ON reports.reports (expires_at) WHERE expires_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX reports.reports_expires_at`);
    await q.query(`DROP INDEX reports.reports_regeneration_range`);
    await q.query(`ALTER TABLE reports.reports DROP COLUMN expires_at, DROP COLUMN parent_guid`);
  }
}
