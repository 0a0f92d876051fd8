import { createLogger, SERVICE_CONFIG } from '@irp/platform';
import { EventOf, isEmailAddress, splitEmailList, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { commentModerationMail } from '../mail/templates';
import { CommentMailStock } from './comment-mail-stock';
import { QueueMail } from './queue-mail';

const log = createLogger('sender');

/** A new announcement comment: the stock's moderator emails, with the link to respond. */
@Injectable()
export class MailCommentToModerators {
  constructor(
    private readonly queue: QueueMail,
    private readonly mailStock: CommentMailStock,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async run(event: EventOf<typeof Topics.CommentPosted>): Promise<void> {
    const recipients = splitEmailList(event.moderatorEmails).filter(isEmailAddress);
    if (!recipients.length) {
      log.warn(
        { stockId: event.stock.id, guid: event.guid },
        'comment posted; the stock has no moderator emails',
      );
      return;
    }
    await this.queue.run({
      requestKey: `comment:${event.guid}`,
      kind: 'comment-moderation',
      stockId: event.stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients,
      content: commentModerationMail({
        stock: await this.mailStock.of(event.stock),
        headline: event.announcement.headline,
        name: event.name,
        email: event.email,
        comment: event.comment,
        flags: event.flags,
        responseUrl: `${this.config.PUBLIC_BASE_URL}${event.responsePath}`,
      }),
    });
  }
}
