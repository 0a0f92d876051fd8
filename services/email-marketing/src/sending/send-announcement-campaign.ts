import { createLogger, Outbox, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import { AnnouncementSendRequestedEvent, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { campaignContent } from '../mail/templates';
import { ProviderAdapters, providerAppError } from '../providers/provider-adapters';
import { EmailSettingsRepository } from '../settings/email-settings.repository';
import { campaignAudience, isConfigured } from '../settings/email-settings-rules';
import type { AnnouncementSendMessage } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('campaigns');

/**
 * The email-marketing channel of a send request: the announcement as a campaign through the stock's provider
 * (Mailchimp-type or Campaign-Monitor-type) with its template and saved segment.
 */
@Injectable()
export class SendAnnouncementCampaign {
  constructor(
    private readonly sends: SendsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly settings: EmailSettingsRepository,
    private readonly adapters: ProviderAdapters,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  /**
   * At most once per request (a campaign sent twice reaches the whole list twice), recorded with the campaign
   * or the failure; a sent campaign is in the announcement's send history under the list's name (its audience),
   * and reported as `announcement.delivered` in the same transaction.
   */
  async run(event: AnnouncementSendRequestedEvent, message: AnnouncementSendMessage): Promise<void> {
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
      const sent = await this.adapters.of(settings).send(settings, content);
      const audience = campaignAudience(settings);
      await this.units.run(async (m) => {
        await this.sends.markCampaignSent(m, sendId, { ...sent, audience });
        await this.outbox.add(m, Topics.AnnouncementDelivered, event.stockId, {
          stockId: event.stockId,
          sendGuid: event.announcement.sendGuid,
          timestamp: new Date().toISOString(),
          emailAddresses: [audience],
        });
      });
      log.info({ stockId: event.stockId, campaignId: sent.campaignId }, 'announcement campaign sent');
    } catch (err) {
      await fail(providerAppError(err).message);
    }
  }
}
