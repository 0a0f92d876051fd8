import { createLogger, Outbox, UnitOfWork, type Tx } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SystemSettingsRepository } from '../settings/system-settings.repository';

const log = createLogger('error-reporter');

/**
 * Asks for the system settings' error email (spec section 3): an `error.reported` event through the outbox,
 * which the email-marketing service turns into a mail. Given the caller's transaction manager, the report
 * commits with the state change that implies it (a streak marked reported, an announcement marked held).
 */
@Injectable()
export class ErrorReporter {
  constructor(
    private readonly settingsRows: SystemSettingsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Reports under `key` (the event says one report per key; callers make it once per streak or announcement).
   * Returns false when no error email is set: the report is only logged.
   */
  async report(key: string, subject: string, message: string, manager?: Tx): Promise<boolean> {
    // Read on the caller's connection: a report from inside a transaction must not wait for a second one.
    const settings = await this.settingsRows.find(manager);
    const errorEmail = settings?.errorEmail ?? '';
    if (!errorEmail.trim()) {
      log.warn(
        { key, subject, message },
        'no error email in the system settings; error not reported by email',
      );
      return false;
    }
    const event = { key, to: errorEmail, subject, message, at: new Date().toISOString() };
    if (manager) await this.outbox.add(manager, Topics.ErrorReported, key, event);
    else await this.unitOfWork.run((tx) => this.outbox.add(tx, Topics.ErrorReported, key, event));
    log.info({ key, subject }, 'error email requested');
    return true;
  }
}
