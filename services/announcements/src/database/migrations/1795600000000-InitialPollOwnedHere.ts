import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a stock's initial poll completed is kept here only (initial_polls), no longer echoed back by
 * the stocks service into the projection. A polled stock the projection said was complete but that has no
 * run of its own (completed before runs were recorded, or demo data) gets a completed run, so it stays
 * polled; then the projection's copy goes.
 */
export class InitialPollOwnedHere1795600000000 implements MigrationInterface {
  name = 'InitialPollOwnedHere1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO announcements.initial_polls
        (stock_id, run_id, status, from_year, to_year, current_year, found, started_at, completed_at, error)
      SELECT s.id, gen_random_uuid(), 'completed', s.announcement_start_year,
             GREATEST(s.announcement_start_year, extract(year FROM now())::int),
             GREATEST(s.announcement_start_year, extract(year FROM now())::int), 0, now(), now(), NULL
      FROM announcements.stocks s
      WHERE s.poll_asx AND s.completed_initial_poll
      ON CONFLICT (stock_id) DO NOTHING`);
    await q.query(`ALTER TABLE announcements.stocks DROP COLUMN completed_initial_poll`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE announcements.stocks ADD COLUMN completed_initial_poll boolean NOT NULL DEFAULT true`,
    );
    await q.query(`
      UPDATE announcements.stocks s SET completed_initial_poll = false
      WHERE s.poll_asx AND NOT EXISTS (SELECT 1 FROM announcements.initial_polls p
                                       WHERE p.stock_id = s.id AND p.status = 'completed')`);
  }
}
