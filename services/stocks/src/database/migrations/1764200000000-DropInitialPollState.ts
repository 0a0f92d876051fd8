import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The initial poll is the announcements service's alone (it runs it and keeps every run): the copy this
 * service kept from its `initial-poll.started/completed` events goes, and with it the round trip that
 * published the stock again for each. The gateway composes the Stock's `completedInitialPoll` instead.
 */
export class DropInitialPollState1764200000000 implements MigrationInterface {
  name = 'DropInitialPollState1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE stocks.stocks DROP COLUMN initial_poll_completed, DROP COLUMN initial_poll_at`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // Back to the old shape; a stock with polling on reads 'Sync in Progress' until its next run reports.
    await q.query(
      `ALTER TABLE stocks.stocks ADD COLUMN initial_poll_completed boolean NOT NULL DEFAULT false,
       ADD COLUMN initial_poll_at timestamptz`,
    );
  }
}
