import { createLogger } from '@irp/platform';
import type { SystemSettingsSavedEvent } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StaffMailSettingsRepository } from './staff-mail-settings.repository';

const log = createLogger('staff-mail-settings');

/**
 * Projects the system settings' error email (`system-settings.saved`, published by the announcements service
 * when they are saved and when it starts): the staff mails of fixed-mails/ go there.
 */
@Injectable()
export class RecordSystemSettings {
  constructor(private readonly settings: StaffMailSettingsRepository) {}

  async run(event: SystemSettingsSavedEvent): Promise<void> {
    if (await this.settings.save(event)) log.info({ savedAt: event.savedAt }, 'error email projected');
    else log.info({ savedAt: event.savedAt }, 'system settings not newer than those projected; kept those');
  }
}
