import { EventOf, splitEmailList, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { errorMail } from '../mail/templates';
import { QueueMail } from './queue-mail';

/** What staff must hear about, and where: an `error.reported` event, or a staff mail of this service's own. */
export type StaffReport = Pick<EventOf<typeof Topics.ErrorReported>, 'key' | 'to' | 'subject' | 'message'>;

/**
 * Something staff must hear about: the system settings' error email, once per report key. Every staff mail
 * is queued here, whoever named the address (MailStaff for this service's own).
 */
@Injectable()
export class MailErrorReport {
  constructor(private readonly queue: QueueMail) {}

  async run(report: StaffReport): Promise<void> {
    await this.queue.run({
      requestKey: `error:${report.key}`,
      kind: 'error',
      stockId: null,
      sendGuid: null,
      recipients: splitEmailList(report.to),
      content: errorMail(report.subject, report.message),
    });
  }
}
