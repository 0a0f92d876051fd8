import { Outbox, UnitOfWork } from '@irp/platform';
import { SystemSettingsSavedEvent, Topics } from '@irp/proto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { SystemSettingsEntity } from './system-settings.entity';
import { SystemSettingsRepository } from './system-settings.repository';

/** Every `system-settings.saved` under one key: one partition, so they arrive in the order they were written. */
export const SYSTEM_SETTINGS_KEY = 'system-settings';

/**
 * Settings never saved (no row yet): no error email, saved at the epoch, so whatever the first save publishes
 * is newer.
 */
const NEVER_SAVED: SystemSettingsSavedEvent = { errorEmail: '', savedAt: new Date(0).toISOString() };

/** The part of the settings other services act on (docs/adr/0013), saved when the row last was. */
export const systemSettingsSaved = (
  row: Pick<SystemSettingsEntity, 'errorEmail' | 'updatedAt'> | null,
): SystemSettingsSavedEvent =>
  row ? { errorEmail: row.errorEmail, savedAt: row.updatedAt.toISOString() } : NEVER_SAVED;

/**
 * Publishes the current settings as `system-settings.saved` (through the outbox) once the api role starts, so
 * a projection made after the last save (a new email-marketing release, a rebuilt one) fills without one.
 * Each api pod publishes on its start; the copies carry the row's own savedAt, so they change nothing a
 * projection already has. A start that cannot publish fails, and the pod restarts and tries again.
 */
@Injectable()
export class PublishSystemSettings implements OnApplicationBootstrap {
  constructor(
    private readonly settings: SystemSettingsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.units.run(async (m) => {
      const event = systemSettingsSaved(await this.settings.find(m));
      await this.outbox.add(m, Topics.SystemSettingsSaved, SYSTEM_SETTINGS_KEY, event);
    });
  }
}
