import { AppError, requireStockRoleOf, SealedInbox } from '@irp/platform';
import {
  Actor,
  EmailMarketingSettings,
  EmailMarketingSettingsView,
  isKeptApiKey,
  StockRole,
} from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { EmailSettingsRepository } from './email-settings.repository';
import { normaliseSettings, settingsProblem, settingsView } from './email-settings-rules';
import { openedProviderKey } from './sealed-provider-key';

/** Saving a stock's email-marketing settings (spec section 3), by whoever may edit them. */
@Injectable()
export class SaveEmailSettings {
  constructor(
    private readonly settings: EmailSettingsRepository,
    private readonly stocks: StockProjectionService,
    private readonly inbox: SealedInbox,
  ) {}

  /** Saves the settings; a key blank or the mask keeps the stored one. Answers them as the routes do. */
  async run(
    actor: Actor,
    stockId: string,
    input: EmailMarketingSettings,
  ): Promise<EmailMarketingSettingsView> {
    const stock = await this.stocks.get(stockId);
    requireStockRoleOf(actor, stock, [StockRole.EditMailchimp], 'save its email-marketing settings');
    const typedKey = openedProviderKey(this.inbox, input.apiKey);
    const settings = normaliseSettings({ ...input, apiKey: typedKey });
    const problem = settingsProblem(settings);
    if (problem) throw new AppError('BAD_REQUEST', problem);
    const apiKey = isKeptApiKey(typedKey) ? null : settings.apiKey;
    return settingsView(await this.settings.save(actor, stockId, { ...settings, apiKey }));
  }
}
