import { Outbox } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MailContent } from '../mail/templates';
import { DELIVERY_BATCH } from './send-requests.service';
import { chunks } from './send-message';

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
 */
@Injectable()
export class MailQueue {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  /** Queues the mail; false when this request key was queued before (a redelivered event). */
  async enqueue(mail: QueuedMail): Promise<boolean> {
    const recipients = [...new Set(mail.recipients.map((r) => r.trim()).filter(Boolean))];
    return this.dataSource.transaction(async (m) => {
      const [send]: Array<{ id: string }> = await m.query(
        `INSERT INTO email_marketing.sends (request_key, kind, channel, stock_id, send_guid, status, message)
         VALUES ($1, $2, 'email', $3, $4, $5, $6)
         ON CONFLICT (request_key) DO NOTHING RETURNING id`,
        [
          mail.requestKey,
          mail.kind,
          mail.stockId,
          mail.sendGuid,
          recipients.length ? 'sending' : 'done',
          JSON.stringify({ kind: 'mail', content: mail.content }),
        ],
      );
      if (!send) return false;
      const deliveries: Array<{ id: string }> = recipients.length
        ? await m.query(
            `INSERT INTO email_marketing.deliveries (send_id, email)
             SELECT $1, unnest($2::text[]) ON CONFLICT (send_id, email) DO NOTHING RETURNING id`,
            [send.id, recipients],
          )
        : [];
      for (const [i, deliveryIds] of chunks(
        deliveries.map((d) => d.id),
        DELIVERY_BATCH,
      ).entries()) {
        await this.outbox.add(m, Topics.EmailDeliveriesQueued, `${send.id}:${i}`, {
          sendId: send.id,
          stockId: mail.stockId,
          deliveryIds,
        });
      }
      return true;
    });
  }
}
