import { defineService, SERVICE_CONFIG, stockProjectionRole } from '@irp/platform';
import { EmailMarketingConfig, emailMarketingConfigSchema } from './config';
import { CreateEmailMarketing1795485733270 } from './database/migrations/1795485733270-CreateEmailMarketing';
import { DropAutoSendIndex1795700000000 } from './database/migrations/1795700000000-DropAutoSendIndex';
import { encryptProviderKeysMigration } from './database/migrations/1796100000000-EncryptProviderKeys';
import { HashUnsubscribeTokens1796200000000 } from './database/migrations/1796200000000-HashUnsubscribeTokens';
import { ClaimOwners1796300000000 } from './database/migrations/1796300000000-ClaimOwners';
import { Mailer } from './mail/mailer';
import { SystemMailHandlers } from './mail/system-mail.handlers';
import { CampaignSender } from './sending/campaign-sender';
import { ClaimOwner } from './sending/claim-owner';
import { DeliveriesRepository } from './sending/deliveries.repository';
import { DeliveryService } from './sending/delivery.service';
import { MailQueue } from './sending/mail-queue';
import { SendRequestsService } from './sending/send-requests.service';
import { SenderHandlers } from './sending/sender.handlers';
import { SendsRepository } from './sending/sends.repository';
import { DeliverySweeper } from './sending/sweeper';
import { EmailSettingsHandlers } from './settings/email-settings.handlers';
import { EmailSettingsRepository } from './settings/email-settings.repository';
import { EmailSettingsService } from './settings/email-settings.service';
import { SecretBox, secretsKeyOf } from './settings/secret-box';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';
import { SubscribersHandlers } from './subscribers/subscribers.handlers';
import { SubscribersRepository } from './subscribers/subscribers.repository';
import { UnsubscribeTokens } from './subscribers/unsubscribe-tokens';
import { SubscribersService } from './subscribers/subscribers.service';

/** `stock.upserted` and the bootstrap / drift repair from `stocks.list`, in the api role. */
const stockProjection = stockProjectionRole(StockProjectionService);

/**
 * The email-marketing service (DESIGN.md): every email the product sends. Roles `api` (settings,
 * subscriber counts and test sends through the providers, subscriptions, the stock projection, the system
 * test email) and `sender` (any number: announcement sends expanded into deliveries and sent over pooled
 * SMTP, campaigns, confirmation, notification and error mails, the delivery sweeper).
 */
export const emailMarketingService = defineService({
  name: 'email-marketing',
  config: emailMarketingConfigSchema,
  // The key is checked here, before anything connects: a production start without one stops at once.
  database: (config) => ({
    entities: [StockProjectionEntity],
    migrations: [
      CreateEmailMarketing1795485733270,
      DropAutoSendIndex1795700000000,
      encryptProviderKeysMigration(new SecretBox(secretsKeyOf(config))),
      HashUnsubscribeTokens1796200000000,
      ClaimOwners1796300000000,
    ],
  }),
  providers: [
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
    SendsRepository,
    DeliveriesRepository,
    SubscribersRepository,
    EmailSettingsRepository,
    StockProjectionService,
    Mailer,
    EmailSettingsService,
    CampaignSender,
    SubscribersService,
    MailQueue,
    ClaimOwner,
    DeliveryService,
    SendRequestsService,
  ],
  roles: {
    api: {
      handlers: [...stockProjection.handlers, EmailSettingsHandlers, SubscribersHandlers, SystemMailHandlers],
      providers: stockProjection.providers,
    },
    sender: { handlers: [SenderHandlers], providers: [DeliverySweeper] },
  },
});
