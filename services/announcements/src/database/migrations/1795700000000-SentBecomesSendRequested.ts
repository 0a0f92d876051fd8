import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Already sent" is read from send_requested_at alone (docs/adr/0013: who was mailed is the email-marketing
 * service's, and the `sent` column is retired). A row marked sent before send_requested_at existed gets its
 * last change as its send request, so a send of it still needs the override. The expand half of retiring
 * sent, send_history and alert_latency_ms: they stay for the pods of the last release during a rolling update,
 * and the next release's migration drops them.
 */
export class SentBecomesSendRequested1795700000000 implements MigrationInterface {
  name = 'SentBecomesSendRequested1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE announcements.announcements SET send_requested_at = COALESCE(send_requested_at, updated_at)
      WHERE sent AND send_requested_at IS NULL`);
  }

  async down(): Promise<void> {
    // Nothing to undo: a stamped row was sent, and the last release reads `sent` or send_requested_at alike.
  }
}
