import {
  AppError,
  createLogger,
  requireAdminActor,
  requireStockRoleOf,
  SealedInbox,
  SERVICE_CONFIG,
} from '@irp/platform';
import {
  Actor,
  API_KEY_MASK,
  BOTH_KEYS_MESSAGE,
  CAMPAIGN_CREATED_MESSAGE,
  EMPTY_EMAIL_MARKETING_SETTINGS,
  EmailMarketingSettings,
  SEND_TO_SUBSCRIBERS_LIMIT,
  sendToSubscribersLimitMessage,
  splitEmailList,
  StockRole,
  TEST_SENT_MESSAGE,
  TestSendRequest,
} from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { campaignContent } from '../mail/templates';
import { ProviderAdapters, providerAppError } from '../providers/provider-adapters';
import { EmailSettingsRepository } from '../settings/email-settings.repository';
import { normaliseSettings } from '../settings/email-settings-rules';
import { openedProviderKey } from '../settings/sealed-provider-key';
import { StockProjectionService } from '../stocks/stock-projection.repository';

const log = createLogger('campaigns');

/**
 * Send Test Email / Send To Subscribers from the Email Marketing tab: a campaign through the stock's provider
 * (Mailchimp-type or Campaign-Monitor-type) with its template and saved segment.
 */
@Injectable()
export class SendTestCampaign {
  constructor(
    private readonly settings: EmailSettingsRepository,
    private readonly stocks: StockProjectionService,
    private readonly adapters: ProviderAdapters,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
    private readonly inbox: SealedInbox,
  ) {}

  /**
   * Sends with the settings as typed; a field the request leaves out is the stock's saved one (spec section
   * 7's body has no email-marketing key: the saved key is used).
   */
  async run(
    request: TestSendRequest & { actor: Actor },
  ): Promise<{ previewUrl: string | null; message: string }> {
    const stock = await this.stocks.get(request.stockId);
    if (request.mode === 'test')
      requireStockRoleOf(request.actor, stock, [StockRole.TestSendAnnouncement], 'send a test email');
    else requireAdminActor(request.actor, 'Send To Subscribers');
    // The mask (the settings' answer, sent back untouched) means the stored key.
    const typed = Object.fromEntries(
      Object.entries(request.settings)
        .filter(([field, value]) => value !== undefined && !(field === 'apiKey' && value === API_KEY_MASK))
        .map(([field, value]) => [field, field === 'apiKey' ? openedProviderKey(this.inbox, value) : value]),
    ) as Partial<EmailMarketingSettings>;
    const saved = await this.settings.get(request.stockId);
    const settings = normaliseSettings({ ...EMPTY_EMAIL_MARKETING_SETTINGS, ...saved, ...typed });
    if (!stock.apiKey || !settings.apiKey) throw new AppError('BAD_REQUEST', BOTH_KEYS_MESSAGE);
    const content = campaignContent({
      stock,
      announcement: request.announcement ?? null,
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
    });
    const adapter = this.adapters.of(settings);
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
}
