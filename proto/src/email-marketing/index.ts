import { defineServiceContract } from '../common/contract';
import { emailMarketingRoutes } from './routes';
import {
  AnnouncementDeliveredEventSchema,
  DeliveriesQueuedEventSchema,
  SendExpansionRequestedEventSchema,
} from './events';
import {
  EmailMarketingDashboardReplySchema,
  EmailMarketingDashboardRequestSchema,
  EmailMarketingSettingsReplySchema,
  GetEmailMarketingSettingsRequestSchema,
  ListSubscribersRequestSchema,
  SaveEmailMarketingSettingsRequestSchema,
  SendSystemEmailReplySchema,
  SendHistoryReplySchema,
  SendHistoryRequestSchema,
  SendSystemEmailRequestSchema,
  SubscribeReplySchema,
  SubscribeRequestSchema,
  SubscriberCountReplySchema,
  SubscriberCountRequestSchema,
  SubscriberListReplySchema,
  SubscriptionReplySchema,
  UnsubscribeReplySchema,
  SubscriptionTokenRequestSchema,
  SavePreferencesRequestSchema,
  DeliverabilityRequestSchema,
  DeliverabilityReplySchema,
  TestSendReplySchema,
  TestSendRequestSchema,
} from './messages';

export * from './events';
export * from './messages';
export * from './records';
export * from './rest';
export * from './routes';
export * from './rules';

/**
 * The email-marketing service: every email the product sends (announcements to subscribers by SMTP or
 * through the stock's email-marketing provider, confirmation, notification, test and error mails), the
 * stocks' email-marketing settings, subscribers with double opt-in, and who was mailed each announcement
 * (`email-marketing.send-history`, docs/adr/0013). Consumes `announcement.send-requested`,
 * `announcement.priority-send-requested`, `announcement.confirmation-requested`, `announcement.detected`,
 * `error.reported`, `stock.upserted`, and for the staff mails it sends itself `system-settings.saved` (the error email), `service-order.submitted` and
 * `market-data.failed`; publishes `announcement.delivered` (a fact for whoever listens: nothing writes it
 * back).
 */
export const emailMarketingContract = defineServiceContract({
  service: 'email-marketing',
  routes: emailMarketingRoutes,
  requests: {
    EmailMarketingGetSettings: {
      topic: 'email-marketing.get-settings',
      request: GetEmailMarketingSettingsRequestSchema,
      reply: EmailMarketingSettingsReplySchema,
    },
    EmailMarketingSaveSettings: {
      topic: 'email-marketing.save-settings',
      request: SaveEmailMarketingSettingsRequestSchema,
      reply: EmailMarketingSettingsReplySchema,
      mutates: true,
    },
    EmailMarketingDeliverability: {
      topic: 'email-marketing.deliverability',
      request: DeliverabilityRequestSchema,
      reply: DeliverabilityReplySchema,
    },
    EmailMarketingSubscriberCount: {
      topic: 'email-marketing.subscriber-count',
      request: SubscriberCountRequestSchema,
      reply: SubscriberCountReplySchema,
    },
    EmailMarketingTestSend: {
      topic: 'email-marketing.test-send',
      request: TestSendRequestSchema,
      reply: TestSendReplySchema,
      mutates: true,
    },
    EmailMarketingSendSystemEmail: {
      topic: 'email-marketing.send-system-email',
      request: SendSystemEmailRequestSchema,
      reply: SendSystemEmailReplySchema,
      mutates: true,
    },
    EmailMarketingSubscribe: {
      topic: 'email-marketing.subscribe',
      request: SubscribeRequestSchema,
      reply: SubscribeReplySchema,
      mutates: true,
    },
    EmailMarketingConfirmSubscription: {
      topic: 'email-marketing.confirm-subscription',
      request: SubscriptionTokenRequestSchema,
      reply: SubscriptionReplySchema,
      mutates: true,
    },
    EmailMarketingSubscription: {
      topic: 'email-marketing.subscription',
      request: SubscriptionTokenRequestSchema,
      reply: UnsubscribeReplySchema,
    },
    EmailMarketingUnsubscribe: {
      topic: 'email-marketing.unsubscribe',
      request: SubscriptionTokenRequestSchema,
      reply: UnsubscribeReplySchema,
      mutates: true,
    },
    EmailMarketingSavePreferences: {
      topic: 'email-marketing.save-preferences',
      request: SavePreferencesRequestSchema,
      reply: UnsubscribeReplySchema,
      mutates: true,
    },
    EmailMarketingSubscribers: {
      topic: 'email-marketing.subscribers',
      request: ListSubscribersRequestSchema,
      reply: SubscriberListReplySchema,
    },
    EmailMarketingDashboard: {
      topic: 'email-marketing.dashboard',
      request: EmailMarketingDashboardRequestSchema,
      reply: EmailMarketingDashboardReplySchema,
    },
    EmailMarketingSendHistory: {
      topic: 'email-marketing.send-history',
      request: SendHistoryRequestSchema,
      reply: SendHistoryReplySchema,
    },
  },
  events: {
    EmailDeliveriesQueued: { topic: 'email.deliveries-queued', schema: DeliveriesQueuedEventSchema },
    /**
     * The priority lane (ADR 0016): batches of a price-sensitive announcement's send, which every sender takes
     * ahead of the routine topic's.
     */
    EmailPriorityDeliveriesQueued: {
      topic: 'email.priority-deliveries-queued',
      schema: DeliveriesQueuedEventSchema,
    },
    /** The rest of an announcement send's deliveries, after its first batch (docs/adr/0019). */
    EmailSendExpansionRequested: {
      topic: 'email.send-expansion-requested',
      schema: SendExpansionRequestedEventSchema,
    },
    AnnouncementDelivered: { topic: 'announcement.delivered', schema: AnnouncementDeliveredEventSchema },
  },
});
