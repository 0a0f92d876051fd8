import { createLogger } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StaffMailSettingsRepository } from '../staff-mail-settings/staff-mail-settings.repository';
import { MailErrorReport, StaffReport } from './mail-error-report';

const log = createLogger('sender');

/**
 * Staff mail about other services' events (a new service order, market data that failed) to the system
 * settings' error email as this service projects it (docs/adr/0013), once per key. With no error email set,
 * the report is only logged.
 */
@Injectable()
export class MailStaff {
  constructor(
    private readonly settings: StaffMailSettingsRepository,
    private readonly errors: MailErrorReport,
  ) {}

  async run(report: Omit<StaffReport, 'to'>): Promise<void> {
    const to = await this.settings.errorEmail();
    if (!to.trim()) {
      log.warn(
        { key: report.key, subject: report.subject, message: report.message },
        'no error email in the system settings; error not reported by email',
      );
      return;
    }
    await this.errors.run({ ...report, to });
  }
}
