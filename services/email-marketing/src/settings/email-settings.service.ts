import { AppError, requireStockRoleOf } from '@irp/platform';
import {
  Actor,
  API_KEY_MASK,
  EmailMarketingSettings,
  EmailMarketingSettingsView,
  isEmailAddress,
  isKeptApiKey,
  splitEmailList,
  StockRole,
} from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { EmailSettingsRepository } from './email-settings.repository';
import { StockProjectionService } from '../stocks/stock-projection.repository';

/** The settings' own rules, with messages naming the tab's fields. */
export function settingsProblem(settings: EmailMarketingSettings): string | undefined {
  if (settings.replyTo.trim() && !isEmailAddress(settings.replyTo.trim()))
    return `Invalid email address in reply to: ${settings.replyTo.trim()}`;
  const invalid = splitEmailList(settings.testEmailAddresses).find((e) => !isEmailAddress(e));
  if (invalid !== undefined) return `Invalid email address in test email addresses: ${invalid}`;
  return undefined;
}

/** Trimmed fields; the client id only belongs to the second provider type. */
export const normaliseSettings = (s: EmailMarketingSettings): EmailMarketingSettings => ({
  provider: s.provider,
  listId: s.listId.trim(),
  apiKey: s.apiKey.trim(),
  templateId: s.templateId.trim(),
  replyTo: s.replyTo.trim(),
  fromName: s.fromName.trim(),
  savedSegmentId: s.savedSegmentId.trim(),
  clientId: s.provider === 'campaign-monitor' ? s.clientId.trim() : '',
  testEmailAddresses: splitEmailList(s.testEmailAddresses).join(', '),
});

/** Email marketing is set up for a stock when its provider key and list are saved (the dashboards' tick). */
export const isConfigured = (s: EmailMarketingSettings | null): boolean => !!s && !!s.apiKey && !!s.listId;

/** The settings as answered: the provider key write-only (masked, with whether one is stored). */
export const settingsView = (s: EmailMarketingSettings): EmailMarketingSettingsView => ({
  ...s,
  apiKey: s.apiKey ? API_KEY_MASK : '',
  apiKeySet: !!s.apiKey,
});

/** A stock's email-marketing settings (spec section 3). */
@Injectable()
export class EmailSettingsService {
  constructor(
    private readonly settings: EmailSettingsRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  /** The settings with the provider key in clear: for this service's own calls to the provider only. */
  async get(stockId: string): Promise<EmailMarketingSettings | null> {
    return this.settings.get(stockId);
  }

  /** The settings as the routes answer them (the key masked). */
  async view(stockId: string): Promise<EmailMarketingSettingsView | null> {
    const settings = await this.settings.get(stockId);
    return settings && settingsView(settings);
  }

  /** Saves the settings; a key blank or the mask keeps the stored one. Answers them as the routes show them. */
  async save(
    actor: Actor,
    stockId: string,
    input: EmailMarketingSettings,
  ): Promise<EmailMarketingSettingsView> {
    const stock = await this.stocks.get(stockId);
    requireStockRoleOf(actor, stock, [StockRole.EditMailchimp], 'save its email-marketing settings');
    const settings = normaliseSettings(input);
    const problem = settingsProblem(settings);
    if (problem) throw new AppError('BAD_REQUEST', problem);
    const apiKey = isKeptApiKey(input.apiKey) ? null : settings.apiKey;
    return settingsView(await this.settings.save(actor, stockId, { ...settings, apiKey }));
  }

  /** The dashboards' Email marketing column for many stocks at once. */
  async dashboard(stockIds: string[]): Promise<Record<string, { emailMarketing: boolean }>> {
    const configured = await this.settings.configured(stockIds);
    return Object.fromEntries(stockIds.map((id) => [id, { emailMarketing: configured.get(id) ?? false }]));
  }
}
