import { EventOf, splitEmailList, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { errorMail } from '../mail/templates';
import { QueueMail } from './queue-mail';

/** Something staff must hear about: the system settings' error email, once per report key. */
@Injectable()
export class MailErrorReport {
  constructor(private readonly queue: QueueMail) {}

  async run(event: EventOf<typeof Topics.ErrorReported>): Promise<void> {
    await this.queue.run({
      requestKey: `error:${event.key}`,
      kind: 'error',
      stockId: null,
      sendGuid: null,
      recipients: splitEmailList(event.to),
      content: errorMail(event.subject, event.message),
    });
  }
}
