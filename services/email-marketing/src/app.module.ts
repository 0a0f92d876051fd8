import { defineService, sealedInboxProvider, SERVICE_CONFIG, stockProjectionRole } from '@irp/platform';
import {
  bounceDomainOf,
  EmailMarketingConfig,
  emailMarketingConfigSchema,
  refineEmailMarketingConfig,
} from './config';
import { BounceListener } from './bounces/bounce-listener';
import { DeliverabilityHandlers } from './deliverability/deliverability.handlers';
import { DeliverabilityRepository } from './deliverability/deliverability.repository';
import { ReadDeliverability } from './deliverability/read-deliverability';
import { MailEventEntity } from './bounces/mail-event.entity';
import { SuppressionEntity } from './bounces/suppression.entity';
import { RecordMailEvents } from './bounces/record-mail-events';
import { ReturnPaths } from './bounces/return-paths';
import { SuppressionsRepository } from './bounces/suppressions.repository';
import { CreateEmailMarketing1795485733270 } from './database/migrations/1795485733270-CreateEmailMarketing';
import { DropAutoSendIndex1795700000000 } from './database/migrations/1795700000000-DropAutoSendIndex';
import { encryptProviderKeysMigration } from './database/migrations/1796100000000-EncryptProviderKeys';
import { HashUnsubscribeTokens1796200000000 } from './database/migrations/1796200000000-HashUnsubscribeTokens';
import { ClaimOwners1796300000000 } from './database/migrations/1796300000000-ClaimOwners';
import { SendHistory1796400000000 } from './database/migrations/1796400000000-SendHistory';
import { StaffMailSettings1796500000000 } from './database/migrations/1796500000000-StaffMailSettings';
import { SendPriority1796600000000 } from './database/migrations/1796600000000-SendPriority';
import { SendExpansion1796700000000 } from './database/migrations/1796700000000-SendExpansion';
import { SubscribersNewestFirst1796800000000 } from './database/migrations/1796800000000-SubscribersNewestFirst';
import { SubscriptionPreferences1797000000000 } from './database/migrations/1797000000000-SubscriptionPreferences';
import { Suppressions1796900000000 } from './database/migrations/1796900000000-Suppressions';
import { CampaignsHandlers } from './campaigns/campaigns.handlers';
import { CountListSubscribers } from './campaigns/count-list-subscribers';
import { SendTestCampaign } from './campaigns/send-test-campaign';
import { CommentMailStock } from './fixed-mails/comment-mail-stock';
import { FixedMailsHandlers } from './fixed-mails/fixed-mails.handlers';
import { MailCommentResponse } from './fixed-mails/mail-comment-response';
import { MailCommentToModerators } from './fixed-mails/mail-comment-to-moderators';
import { MailErrorReport } from './fixed-mails/mail-error-report';
import { MailStaff } from './fixed-mails/mail-staff';
import { MailSecurityNotice } from './fixed-mails/mail-security-notice';
import { NotifyDetection } from './fixed-mails/notify-detection';
import { QueueMail } from './fixed-mails/queue-mail';
import { SendConfirmationEmail } from './fixed-mails/send-confirmation-email';
import { Mailer } from './mail/mailer';
import { SystemMailHandlers } from './mail/system-mail.handlers';
import { ProviderAdapters } from './providers/provider-adapters';
import { ReadSendHistory } from './send-history/read-send-history';
import { SendHistoryHandlers } from './send-history/send-history.handlers';
import { ClaimOwner } from './sending/claim-owner';
import { DeliveriesRepository } from './sending/deliveries.repository';
import { DeliverBatch } from './sending/deliver-batch';
import { DeliveryEntity } from './sending/delivery.entity';
import { DeliveryJobs } from './sending/delivery-jobs';
import { ReportDeliveries } from './sending/report-deliveries';
import { SendAnnouncement } from './sending/send-announcement';
import { ExpandSendRest } from './sending/send-expansion';
import { SendAnnouncementCampaign } from './sending/send-announcement-campaign';
import { SendEntity } from './sending/send.entity';
import { SenderHandlers } from './sending/sender.handlers';
import { SendsRepository } from './sending/sends.repository';
import { SweepDueDeliveries } from './sending/sweep-due-deliveries';
import { TakeOverClaims } from './sending/take-over-claims';
import { ApplyOrderSettings } from './settings/apply-order-settings';
import { EmailSettingsEntity } from './settings/email-settings.entity';
import { EmailSettingsHandlers } from './settings/email-settings.handlers';
import { EmailSettingsReads } from './settings/email-settings-reads';
import { EmailSettingsRepository } from './settings/email-settings.repository';
import { SaveEmailSettings } from './settings/save-email-settings';
import { SecretBox, secretsKeyOf } from './settings/secret-box';
import { ServiceOrderSettingsSource } from './settings/service-order-settings.source';
import { RecordSystemSettings } from './staff-mail-settings/record-system-settings';
import { StaffMailSettingsEntity } from './staff-mail-settings/staff-mail-settings.entity';
import { StaffMailSettingsHandlers } from './staff-mail-settings/staff-mail-settings.handlers';
import { StaffMailSettingsRepository } from './staff-mail-settings/staff-mail-settings.repository';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';
import { ConfirmSubscription } from './subscribers/confirm-subscription';
import { SavePreferences } from './subscribers/save-preferences';
import { Subscribe } from './subscribers/subscribe';
import { SubscribeAttemptEntity } from './subscribers/subscribe-attempt.entity';
import { SubscriberEntity } from './subscribers/subscriber.entity';
import { SubscriberReads } from './subscribers/subscriber-reads';
import { SubscribersHandlers } from './subscribers/subscribers.handlers';
import { SubscribersRepository } from './subscribers/subscribers.repository';
import { SubscriptionOutcomes } from './subscribers/subscription-outcomes';
import { Unsubscribe } from './subscribers/unsubscribe';
import { UnsubscribeTokens } from './subscribers/unsubscribe-tokens';

/** `stock.upserted` and the bootstrap / drift repair from `stocks.list`, in the api role. */
const stockProjection = stockProjectionRole(StockProjectionService);

/**
 * The email-marketing service (DESIGN.md): every email the product sends, and who was mailed each
 * announcement. Roles `api` (settings, subscriber counts and test sends through the providers, subscriptions,
 * the stock and error-email projections, the system test email, the send history) and `sender` (any number:
 * announcement sends expanded into deliveries and sent over pooled SMTP, campaigns, confirmation,
 * notification, error and staff mails, the delivery sweeper) and `bounces` (the SMTP listener the bounce domain's
 * MX points at: DSNs and ARF complaints recorded, addresses suppressed).
 */
export const emailMarketingService = defineService({
  name: 'email-marketing',
  config: emailMarketingConfigSchema,
  refineConfig: refineEmailMarketingConfig,
  // The key is checked here, before anything connects: a production start without one stops at once.
  database: (config) => ({
    entities: [
      StockProjectionEntity,
      EmailSettingsEntity,
      SubscriberEntity,
      SubscribeAttemptEntity,
      SendEntity,
      DeliveryEntity,
      StaffMailSettingsEntity,
      MailEventEntity,
      SuppressionEntity,
    ],
    migrations: [
      CreateEmailMarketing1795485733270,
      DropAutoSendIndex1795700000000,
      encryptProviderKeysMigration(new SecretBox(secretsKeyOf(config))),
      HashUnsubscribeTokens1796200000000,
      ClaimOwners1796300000000,
      SendHistory1796400000000,
      StaffMailSettings1796500000000,
      SendPriority1796600000000,
      SendExpansion1796700000000,
      SubscribersNewestFirst1796800000000,
      Suppressions1796900000000,
      SubscriptionPreferences1797000000000,
    ],
  }),
  providers: [
    sealedInboxProvider('email-marketing'),
    {
      provide: SecretBox,
      useFactory: (config: Parameters<typeof secretsKeyOf>[0]) => new SecretBox(secretsKeyOf(config)),
      inject: [SERVICE_CONFIG],
    },
    {
      provide: UnsubscribeTokens,
      useFactory: (config: EmailMarketingConfig) => new UnsubscribeTokens(config.UNSUBSCRIBE_LINK_SECRET),
      inject: [SERVICE_CONFIG],
    },
    {
      // The return paths are signed with the unsubscribe links' secret, under a label of their own.
      provide: ReturnPaths,
      useFactory: (config: EmailMarketingConfig) =>
        new ReturnPaths(config.UNSUBSCRIBE_LINK_SECRET, bounceDomainOf(config)),
      inject: [SERVICE_CONFIG],
    },
    SendsRepository,
    DeliveriesRepository,
    SuppressionsRepository,
    RecordMailEvents,
    SubscribersRepository,
    EmailSettingsRepository,
    StockProjectionService,
    StaffMailSettingsRepository,
    Mailer,
    ProviderAdapters,
    // settings/ and campaigns/ (api)
    EmailSettingsReads,
    SaveEmailSettings,
    ServiceOrderSettingsSource,
    ApplyOrderSettings,
    CountListSubscribers,
    SendTestCampaign,
    // subscribers/ (api)
    SubscriptionOutcomes,
    Subscribe,
    ConfirmSubscription,
    Unsubscribe,
    SavePreferences,
    SubscriberReads,
    // send-history/, deliverability/ and staff-mail-settings/ (api)
    ReadSendHistory,
    DeliverabilityRepository,
    ReadDeliverability,
    RecordSystemSettings,
    // sending/ and fixed-mails/ (sender)
    ClaimOwner,
    ReportDeliveries,
    DeliverBatch,
    SendAnnouncementCampaign,
    SendAnnouncement,
    ExpandSendRest,
    QueueMail,
    CommentMailStock,
    SendConfirmationEmail,
    NotifyDetection,
    MailErrorReport,
    MailCommentToModerators,
    MailCommentResponse,
    MailStaff,
    MailSecurityNotice,
  ],
  roles: {
    api: {
      handlers: [
        ...stockProjection.handlers,
        EmailSettingsHandlers,
        CampaignsHandlers,
        SubscribersHandlers,
        SystemMailHandlers,
        SendHistoryHandlers,
        DeliverabilityHandlers,
        StaffMailSettingsHandlers,
      ],
      providers: stockProjection.providers,
    },
    sender: {
      handlers: [SenderHandlers, FixedMailsHandlers],
      providers: [SweepDueDeliveries, TakeOverClaims, DeliveryJobs],
    },
    bounces: {
      providers: [BounceListener],
    },
  },
});
