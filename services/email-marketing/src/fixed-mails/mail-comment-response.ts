import { createLogger } from '@irp/platform';
import { EventOf, isEmailAddress, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { commentResponseMail } from '../mail/templates';
import { CommentMailStock } from './comment-mail-stock';
import { QueueMail } from './queue-mail';

const log = createLogger('sender');

/** A response posted publicly: the commenter, in the stock's announcement comment template. */
@Injectable()
export class MailCommentResponse {
  constructor(
    private readonly queue: QueueMail,
    private readonly mailStock: CommentMailStock,
  ) {}

  async run(event: EventOf<typeof Topics.CommentResponded>): Promise<void> {
    if (!isEmailAddress(event.email)) {
      log.warn({ guid: event.guid }, 'comment response not mailed: the commenter gave no valid address');
      return;
    }
    await this.queue.run({
      requestKey: `comment-response:${event.guid}:${event.version}`,
      kind: 'comment-response',
      stockId: event.stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients: [event.email],
      content: commentResponseMail({
        stock: await this.mailStock.of(event.stock),
        template: event.template,
        headline: event.announcement.headline,
        name: event.name,
        response: event.response,
      }),
    });
  }
}
