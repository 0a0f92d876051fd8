import {
  AppError,
  createLogger,
  Outbox,
  requireAdminActor,
  requireStockRoleOf,
  SERVICE_CONFIG,
  UnitOfWork,
} from '@irp/platform';
import {
  Actor,
  AnnouncementSendRequestedEvent,
  API_KEY_MASK,
  BOTH_KEYS_MESSAGE,
  CAMPAIGN_CREATED_MESSAGE,
  EMAIL_MARKETING_PROVIDER_LABELS,
  EMPTY_EMAIL_MARKETING_SETTINGS,
  EmailMarketingSettings,
  isKeptApiKey,
  StockRole,
  SEND_TO_SUBSCRIBERS_LIMIT,
  sendToSubscribersLimitMessage,
  splitEmailList,
  TEST_SENT_MESSAGE,
  TestSendRequest,
  Topics,
} from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { campaignContent } from '../mail/templates';
import { EmailMarketingProviderAdapter, ProviderError } from '../providers/provider';
import { providerFor } from '../providers/provider-factory';
import { isConfigured, normaliseSettings } from '../settings/email-settings.service';
import { EmailSettingsService } from '../settings/email-settings.service';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import type { AnnouncementSendMessage } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('campaigns');

/** A provider's failure as the caller should see it: its message; 503 when it was the provider being down. */
export function providerAppError(err: unknown): AppError {
  if (err instanceof ProviderError)
    return new AppError(err.retryable ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST', err.message);
  if (err instanceof AppError) return err;
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The email-marketing service could not be reached: ${String(err)}`,
  );
}

/**
 * The email-marketing channel: campaigns through the stock's provider (Mailchimp-type or
 * Campaign-Monitor-type) with its template and saved segment; the tab's subscriber count and test sends.
 */
@Injectable()
export class CampaignSender {
  constructor(
    private readonly sends: SendsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly settings: EmailSettingsService,
    private readonly stocks: StockProjectionService,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  private adapter(settings: Pick<EmailMarketingSettings, 'provider'>): EmailMarketingProviderAdapter {
    return providerFor(settings.provider, {
      baseUrl:
        settings.provider === 'mailchimp'
          ? this.config.MAILCHIMP_BASE_URL
          : this.config.CAMPAIGN_MONITOR_BASE_URL,
      timeoutMs: this.config.PROVIDER_TIMEOUT_MS,
    });
  }

  async subscriberCount(input: {
    stockId: string | null;
    provider?: EmailMarketingSettings['provider'];
    apiKey: string;
    listId: string;
    clientId: string;
  }): Promise<number> {
    const saved = input.stockId ? await this.settings.get(input.stockId) : null;
    // No key in the request (or the mask): the stock's stored one, so the key need not travel in a URL.
    const apiKey = isKeptApiKey(input.apiKey) ? (saved?.apiKey ?? '') : input.apiKey;
    if (!apiKey.trim()) throw new AppError('BAD_REQUEST', 'Enter the email-marketing API key');
    if (!input.listId.trim()) throw new AppError('BAD_REQUEST', 'Enter the list id');
    const provider = input.provider ?? saved?.provider ?? 'mailchimp';
    const settings = normaliseSettings({
      ...(saved ?? {
        templateId: '',
        replyTo: '',
        fromName: '',
        savedSegmentId: '',
        testEmailAddresses: '',
      }),
      provider,
      apiKey,
      listId: input.listId,
      clientId: input.clientId,
    });
    try {
      return await this.adapter(settings).subscriberCount(settings);
    } catch (err) {
      throw providerAppError(err);
    }
  }

  /**
   * Send Test Email / Send To Subscribers with the settings as typed; a field the request leaves out is the
   * stock's saved one (spec section 7's body has no email-marketing key: the saved key is used).
   */
  async testSend(
    request: TestSendRequest & { actor: Actor },
  ): Promise<{ previewUrl: string | null; message: string }> {
    const stock = await this.stocks.get(request.stockId);
    if (request.mode === 'test')
      requireStockRoleOf(request.actor, stock, [StockRole.TestSendAnnouncement], 'send a test email');
    else requireAdminActor(request.actor, 'Send To Subscribers');
    // The mask (the settings' answer, sent back untouched) means the stored key.
    const typed = Object.fromEntries(
      Object.entries(request.settings).filter(
        ([field, value]) => value !== undefined && !(field === 'apiKey' && value === API_KEY_MASK),
      ),
    ) as Partial<EmailMarketingSettings>;
    const saved = await this.settings.get(request.stockId);
    const settings = normaliseSettings({ ...EMPTY_EMAIL_MARKETING_SETTINGS, ...saved, ...typed });
    if (!stock.apiKey || !settings.apiKey) throw new AppError('BAD_REQUEST', BOTH_KEYS_MESSAGE);
    const content = campaignContent({
      stock,
      announcement: request.announcement ?? null,
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
    });
    const adapter = this.adapter(settings);
    try {
      if (request.mode === 'test') {
        const to = splitEmailList(settings.testEmailAddresses);
        if (!to.length) throw new AppError('BAD_REQUEST', 'Enter at least one test email address');
        const sent = await adapter.testSend(settings, content, to);
        log.info({ stockId: stock.id, campaignId: sent.campaignId, to: to.length }, 'test campaign sent');
        return { previewUrl: sent.previewUrl, message: TEST_SENT_MESSAGE };
      }
      const count = await adapter.subscriberCount(settings);
      if (count > SEND_TO_SUBSCRIBERS_LIMIT)
        throw new AppError('BAD_REQUEST', sendToSubscribersLimitMessage(count));
      const sent = await adapter.send(settings, content);
      log.info({ stockId: stock.id, campaignId: sent.campaignId, count }, 'campaign sent to subscribers');
      return { previewUrl: sent.previewUrl, message: CAMPAIGN_CREATED_MESSAGE };
    } catch (err) {
      throw providerAppError(err);
    }
  }

  /**
   * An announcement through the stock's provider: at most once per request (a campaign sent twice reaches
   * the whole list twice), recorded with the campaign or the failure; a sent campaign is reported into the
   * announcement's sendHistory under the list's name.
   */
  async sendAnnouncement(
    event: AnnouncementSendRequestedEvent,
    message: AnnouncementSendMessage,
  ): Promise<void> {
    const settings = await this.settings.get(event.stockId);
    const sendId = await this.sends.insertAnnouncement(event, 'email-marketing', message);
    if (!sendId) return;
    const fail = async (error: string) => {
      await this.sends.markFailed(sendId, error);
      log.warn({ stockId: event.stockId, sendGuid: event.announcement.sendGuid, error }, 'campaign not sent');
    };
    if (!settings || !isConfigured(settings)) {
      await fail(`Email marketing is not set up for ${event.combinedTicker} (API key and list id)`);
      return;
    }
    try {
      const content = campaignContent({
        stock: message.stock,
        announcement: message.announcement,
        publicBaseUrl: this.config.PUBLIC_BASE_URL,
      });
      const sent = await this.adapter(settings).send(settings, content);
      await this.units.run(async (m) => {
        await this.sends.markCampaignSent(m, sendId, sent);
        await this.outbox.add(m, Topics.AnnouncementDelivered, event.stockId, {
          stockId: event.stockId,
          sendGuid: event.announcement.sendGuid,
          timestamp: new Date().toISOString(),
          emailAddresses: [`${EMAIL_MARKETING_PROVIDER_LABELS[settings.provider]} list ${settings.listId}`],
        });
      });
      log.info({ stockId: event.stockId, campaignId: sent.campaignId }, 'announcement campaign sent');
    } catch (err) {
      await fail(providerAppError(err).message);
    }
  }
}
