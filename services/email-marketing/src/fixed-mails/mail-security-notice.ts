import { EventOf, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@irp/platform';
import type { EmailMarketingConfig } from '../config';
import { securityNoticeMail } from '../mail/templates';
import { QueueMail } from './queue-mail';

/**
 * `user.access-changed` (issue 34): the user whose password or roles changed is mailed, whoever made the
 * change, once per change (a redelivered event queues nothing).
 */
@Injectable()
export class MailSecurityNotice {
  constructor(
    private readonly queue: QueueMail,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async run(notice: EventOf<typeof Topics.UserAccessChanged>): Promise<void> {
    await this.queue.run({
      requestKey: `access-changed:${notice.userId}:${notice.at}`,
      kind: 'security-notice',
      stockId: null,
      sendGuid: null,
      recipients: [notice.to],
      content: securityNoticeMail(notice, this.config.PUBLIC_BASE_URL),
    });
  }
}
