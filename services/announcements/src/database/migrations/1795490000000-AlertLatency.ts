import { MigrationInterface, QueryRunner } from 'typeorm';

/** Alert latency per announcement (release at the source -> first subscriber mail accepted), from the email service. */
export class AlertLatency1795490000000 implements MigrationInterface {
  name = 'AlertLatency1795490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE announcements.announcements ADD COLUMN alert_latency_ms integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE announcements.announcements DROP COLUMN alert_latency_ms`);
  }
}
