import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The system settings' error email, projected from `system-settings.saved` (issue 32, docs/adr/0013): this
 * service mails staff about other services' events itself (a new service order, market data that failed)
 * instead of the announcements service relaying each as `error.reported`. One row; `saved_at` is the
 * settings' own time, so the newest saved settings stay whatever order their events arrive in.
 */
export class StaffMailSettings1796500000000 implements MigrationInterface {
  name = 'StaffMailSettings1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_marketing.staff_mail_settings (
        id int PRIMARY KEY CHECK (id = 1),
        error_email text NOT NULL,
        saved_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_marketing.staff_mail_settings`);
  }
}
