import { HandleEvent } from '@irp/platform';
import { EventOf, marketDataFailedMail, newOrderMail, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { MailCommentResponse } from './mail-comment-response';
import { MailCommentToModerators } from './mail-comment-to-moderators';
import { MailErrorReport } from './mail-error-report';
import { MailSecurityNotice } from './mail-security-notice';
import { MailStaff } from './mail-staff';
import { NotifyDetection } from './notify-detection';
import { SendConfirmationEmail } from './send-confirmation-email';

/**
 * The `sender` role's other mails, the ones other services ask for (confirmation, detection notification,
 * error and comment mails) and the staff mails of other services' events: each handler calls its use case,
 * which queues the mail's deliveries (QueueMail).
 */
@Controller()
export class FixedMailsHandlers {
  constructor(
    private readonly confirmation: SendConfirmationEmail,
    private readonly notification: NotifyDetection,
    private readonly errors: MailErrorReport,
    private readonly moderation: MailCommentToModerators,
    private readonly responses: MailCommentResponse,
    private readonly staff: MailStaff,
    private readonly security: MailSecurityNotice,
  ) {}

  @HandleEvent(Topics.AnnouncementConfirmationRequested)
  async confirmationRequested(@Payload() event: EventOf<typeof Topics.AnnouncementConfirmationRequested>) {
    await this.confirmation.run(event);
  }

  @HandleEvent(Topics.AnnouncementDetected)
  async detected(@Payload() event: EventOf<typeof Topics.AnnouncementDetected>) {
    await this.notification.run(event);
  }

  @HandleEvent(Topics.ErrorReported)
  async errorReported(@Payload() event: EventOf<typeof Topics.ErrorReported>) {
    await this.errors.run(event);
  }

  @HandleEvent(Topics.CommentPosted)
  async commentPosted(@Payload() event: EventOf<typeof Topics.CommentPosted>) {
    await this.moderation.run(event);
  }

  @HandleEvent(Topics.CommentResponded)
  async commentResponded(@Payload() event: EventOf<typeof Topics.CommentResponded>) {
    await this.responses.run(event);
  }

  /** A new service order from the public form (stocks service): once per order. */
  @HandleEvent(Topics.ServiceOrderSubmitted)
  async serviceOrderSubmitted(@Payload() event: EventOf<typeof Topics.ServiceOrderSubmitted>) {
    await this.staff.run({ key: `service-order:${event.order.id}`, ...newOrderMail(event.order) });
  }

  /** A user's password or roles changed (users service): the user is told, once per change. */
  @HandleEvent(Topics.UserAccessChanged)
  async securityNotice(@Payload() event: EventOf<typeof Topics.UserAccessChanged>) {
    await this.security.run(event);
  }

  /** The market-data provider stayed unavailable for a job of the reports service: once per report key. */
  @HandleEvent(Topics.MarketDataFailed)
  async marketDataFailed(@Payload() event: EventOf<typeof Topics.MarketDataFailed>) {
    await this.staff.run({ key: `market-data:${event.key}`, ...marketDataFailedMail(event) });
  }
}
