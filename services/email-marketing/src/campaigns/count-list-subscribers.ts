import { AppError, SealedInbox } from '@irp/platform';
import { EmailMarketingSettings, isKeptApiKey } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { ProviderAdapters, providerAppError } from '../providers/provider-adapters';
import { EmailSettingsRepository } from '../settings/email-settings.repository';
import { normaliseSettings } from '../settings/email-settings-rules';
import { openedProviderKey } from '../settings/sealed-provider-key';

/** The Email Marketing tab's subscriber count: the provider list's, with the settings as typed. */
@Injectable()
export class CountListSubscribers {
  constructor(
    private readonly settings: EmailSettingsRepository,
    private readonly adapters: ProviderAdapters,
    private readonly inbox: SealedInbox,
  ) {}

  async run(input: {
    stockId: string | null;
    provider?: EmailMarketingSettings['provider'];
    apiKey: string;
    listId: string;
    clientId: string;
  }): Promise<number> {
    const saved = input.stockId ? await this.settings.get(input.stockId) : null;
    // No key in the request (or the mask): the stock's stored one, so the key need not travel in a URL.
    const typed = openedProviderKey(this.inbox, input.apiKey);
    const apiKey = isKeptApiKey(typed) ? (saved?.apiKey ?? '') : typed;
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
      return await this.adapters.of(settings).subscriberCount(settings);
    } catch (err) {
      throw providerAppError(err);
    }
  }
}
