import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The part of the system settings this service acts on, projected from `system-settings.saved`: the error
 * email its staff mails go to. One row (id 1), the newest saved settings' (`savedAt`, their own time).
 */
@Entity({ name: 'staff_mail_settings' })
export class StaffMailSettingsEntity {
  @PrimaryColumn({ type: 'int' })
  id!: number;

  /** As the system settings hold it: addresses separated by `;` or `,`; blank when none is set. */
  @Column({ name: 'error_email', type: 'text' })
  errorEmail!: string;

  @Column({ name: 'saved_at', type: 'timestamptz' })
  savedAt!: Date;
}
