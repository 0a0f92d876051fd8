import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public page's date-range search is off unless the staff member ticks 'Allow search' (issue 34): the
 * column says so too, for a row written without it. Reports made before keep the search they were made with
 * (their links may be in use; a staff member who wants one closed makes it again unticked).
 */
export class ReportSearchOffByDefault1796700000000 implements MigrationInterface {
  name = 'ReportSearchOffByDefault1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reports.reports ALTER COLUMN allow_search SET DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reports.reports ALTER COLUMN allow_search DROP DEFAULT`);
  }
}
