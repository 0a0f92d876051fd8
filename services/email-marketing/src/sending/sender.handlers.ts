import { createLogger, HandleEvent, SERVICE_CONFIG } from '@irp/platform';
import { EventOf, isEmailAddress, splitEmailList, Topics } from '@irp/proto';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { EmailMarketingConfig } from '../config';
import {
  commentModerationMail,
  commentResponseMail,
  confirmationMail,
  errorMail,
  MailStock,
  notificationMail,
} from '../mail/templates';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { DeliveryService } from './delivery.service';
import { MailQueue } from './mail-queue';
import { SendRequestsService } from './send-requests.service';

const log = createLogger('sender');

type CommentEventStock = EventOf<typeof Topics.CommentPosted>['stock'];

/**
 * The `sender` role (a consumer group; any number of instances): announcement sends expanded into
 * deliveries, delivery batches sent, and the other mails the announcements service asks for.
 */
@Controller()
export class SenderHandlers {
  constructor(
    private readonly requests: SendRequestsService,
    private readonly deliveries: DeliveryService,
    private readonly queue: MailQueue,
    private readonly stocks: StockProjectionService,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  @HandleEvent(Topics.AnnouncementSendRequested)
  async sendRequested(@Payload() event: EventOf<typeof Topics.AnnouncementSendRequested>) {
    await this.requests.handle(event);
  }

  @HandleEvent(Topics.EmailDeliveriesQueued)
  async deliveriesQueued(@Payload() event: EventOf<typeof Topics.EmailDeliveriesQueued>) {
    await this.deliveries.sendBatch(event.sendId, event.deliveryIds);
  }

  /** Send Confirmation Email: the announcement to the stock's confirmation emails. */
  @HandleEvent(Topics.AnnouncementConfirmationRequested)
  async confirmationRequested(@Payload() event: EventOf<typeof Topics.AnnouncementConfirmationRequested>) {
    const stock = await this.stocks.get(event.stockId);
    await this.queue.enqueue({
      requestKey: `confirmation:${event.requestId}`,
      kind: 'confirmation',
      stockId: stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients: event.recipients,
      content: confirmationMail({
        stock,
        announcement: event.announcement,
        publicBaseUrl: this.config.PUBLIC_BASE_URL,
      }),
    });
  }

  /** A polled announcement was detected: the company's announcement notification emails hear of it. */
  @HandleEvent(Topics.AnnouncementDetected)
  async detected(@Payload() event: EventOf<typeof Topics.AnnouncementDetected>) {
    // Initial polls, resyncs and reconciles store history, not news: nobody is told of those.
    if (event.origin !== 'poll') return;
    const stock = await this.stocks.byId(event.stockId);
    const recipients = splitEmailList(stock?.announcementNotificationEmails);
    if (!stock || !recipients.length) return;
    await this.queue.enqueue({
      requestKey: `notification:${event.announcement.id}`,
      kind: 'notification',
      stockId: stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients,
      content: notificationMail({
        stock,
        announcement: event.announcement,
        publicBaseUrl: this.config.PUBLIC_BASE_URL,
        stockPageUrl: `${this.config.PUBLIC_BASE_URL}/client-stocks/${encodeURIComponent(stock.combinedTicker)}`,
      }),
    });
  }

  /** Something staff must hear about: the system settings' error email, once per report key. */
  @HandleEvent(Topics.ErrorReported)
  async errorReported(@Payload() event: EventOf<typeof Topics.ErrorReported>) {
    await this.queue.enqueue({
      requestKey: `error:${event.key}`,
      kind: 'error',
      stockId: null,
      sendGuid: null,
      recipients: splitEmailList(event.to),
      content: errorMail(event.subject, event.message),
    });
  }

  /** A new announcement comment: the stock's moderator emails, with the link to respond. */
  @HandleEvent(Topics.CommentPosted)
  async commentPosted(@Payload() event: EventOf<typeof Topics.CommentPosted>) {
    const recipients = splitEmailList(event.moderatorEmails).filter(isEmailAddress);
    if (!recipients.length) {
      log.warn(
        { stockId: event.stock.id, guid: event.guid },
        'comment posted; the stock has no moderator emails',
      );
      return;
    }
    await this.queue.enqueue({
      requestKey: `comment:${event.guid}`,
      kind: 'comment-moderation',
      stockId: event.stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients,
      content: commentModerationMail({
        stock: await this.mailStock(event.stock),
        headline: event.announcement.headline,
        name: event.name,
        email: event.email,
        comment: event.comment,
        flags: event.flags,
        responseUrl: `${this.config.PUBLIC_BASE_URL}${event.responsePath}`,
      }),
    });
  }

  /** A response posted publicly: the commenter, in the stock's announcement comment template. */
  @HandleEvent(Topics.CommentResponded)
  async commentResponded(@Payload() event: EventOf<typeof Topics.CommentResponded>) {
    if (!isEmailAddress(event.email)) {
      log.warn({ guid: event.guid }, 'comment response not mailed: the commenter gave no valid address');
      return;
    }
    await this.queue.enqueue({
      requestKey: `comment-response:${event.guid}:${event.version}`,
      kind: 'comment-response',
      stockId: event.stock.id,
      sendGuid: event.announcement.sendGuid,
      recipients: [event.email],
      content: commentResponseMail({
        stock: await this.mailStock(event.stock),
        template: event.template,
        headline: event.announcement.headline,
        name: event.name,
        response: event.response,
      }),
    });
  }

  /** The stock as mails show it: this service's projection (logo), else what the event says. */
  private async mailStock(stock: CommentEventStock): Promise<MailStock> {
    const projected = await this.stocks.byId(stock.id);
    return (
      projected ?? {
        ticker: stock.ticker,
        exchange: stock.combinedTicker.split(':')[1] ?? 'ASX',
        companyName: stock.companyName,
        companyLogoUrl: '',
      }
    );
  }
}
