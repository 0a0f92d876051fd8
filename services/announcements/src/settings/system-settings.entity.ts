import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AnnouncementService } from '@irp/proto';

/** The one row of system settings (spec section 3); id is always 1. */
@Entity({ name: 'system_settings' })
export class SystemSettingsEntity {
  @PrimaryColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'announcement_service', type: 'text' })
  announcementService!: AnnouncementService;

  @Column({ name: 'error_email', type: 'text', default: '' })
  errorEmail!: string;

  @Column({ name: 'hourly_auto_send_limit', type: 'int' })
  hourlyAutoSendLimit!: number;

  @Column({ name: 'daily_auto_send_limit', type: 'int' })
  dailyAutoSendLimit!: number;

  @Column({ name: 'disable_poll_until', type: 'timestamptz', nullable: true })
  disablePollUntil!: Date | null;

  @Column({ name: 'use_nightmare', type: 'boolean', default: false })
  useNightmare!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'text', default: '' })
  updatedBy!: string;
}
