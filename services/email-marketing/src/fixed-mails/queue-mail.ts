import { Outbox, UnitOfWork } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import type { MailContent } from '../mail/templates';
import { DeliveriesRepository } from '../sending/deliveries.repository';
import { batchKey, DELIVERY_BATCH, uniqueRecipients } from '../sending/delivery-rules';
import { chunks } from '../sending/send-message';
import { SendsRepository } from '../sending/sends.repository';

export interface QueuedMail {
  /** Makes the request idempotent: a second enqueue with the same key changes nothing. */
  requestKey: string;
  /** confirmation, notification, error … (metrics and the sends table). */
  kind: string;
  stockId: string | null;
  sendGuid: string | null;
  recipients: string[];
  content: MailContent;
}

/**
 * Mails that are not an announcement to subscribers (Send Confirmation Email, detection notifications,
 * error mails) go through the same deliveries as announcements: recorded once per request key, each
 * recipient claimed before SMTP and marked after, retried with backoff, failures kept with the SMTP reply.
 * Every use case of this folder ends here.
 */
@Injectable()
export class QueueMail {
  constructor(
    private readonly sends: SendsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** Queues the mail; false when this request key was queued before (a redelivered event). */
  async run(mail: QueuedMail): Promise<boolean> {
    const recipients = uniqueRecipients(mail.recipients);
    return this.units.run(async (tx) => {
      const sendId = await this.sends.insertMail(tx, {
        requestKey: mail.requestKey,
        kind: mail.kind,
        stockId: mail.stockId,
        sendGuid: mail.sendGuid,
        status: recipients.length ? 'sending' : 'done',
        message: { kind: 'mail', content: mail.content },
      });
      if (!sendId) return false;
      const deliveries = await this.deliveries.queueForRecipients(tx, sendId, recipients);
      for (const [i, deliveryIds] of chunks(deliveries, DELIVERY_BATCH).entries()) {
        await this.outbox.add(tx, Topics.EmailDeliveriesQueued, batchKey(sendId, i), {
          sendId,
          stockId: mail.stockId,
          deliveryIds,
        });
      }
      return true;
    });
  }
}
