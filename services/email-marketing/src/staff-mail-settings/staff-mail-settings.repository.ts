import type { SystemSettingsSavedEvent } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StaffMailSettingsEntity } from './staff-mail-settings.entity';

/** The projected error email (one row); the only place that queries its table. */
@Injectable()
export class StaffMailSettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Keeps the saved settings unless those stored were saved later (an event that arrives late, or again,
   * changes nothing). Whether they were kept.
   */
  async save(settings: SystemSettingsSavedEvent): Promise<boolean> {
    const kept: Array<Pick<StaffMailSettingsEntity, 'id'>> = await this.dataSource.query(
      `INSERT INTO email_marketing.staff_mail_settings (id, error_email, saved_at) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET error_email = EXCLUDED.error_email, saved_at = EXCLUDED.saved_at
       WHERE email_marketing.staff_mail_settings.saved_at < EXCLUDED.saved_at
       RETURNING id`,
      [settings.errorEmail, settings.savedAt],
    );
    return kept.length > 0;
  }

  /** The error email as the system settings hold it; '' before any settings were projected. */
  async errorEmail(): Promise<StaffMailSettingsEntity['errorEmail']> {
    const [row]: Array<Pick<StaffMailSettingsEntity, 'errorEmail'>> = await this.dataSource.query(
      `SELECT error_email AS "errorEmail" FROM email_marketing.staff_mail_settings WHERE id = 1`,
    );
    return row?.errorEmail ?? '';
  }
}
