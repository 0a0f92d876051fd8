import { EmailMarketingSettingsView } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { EmailSettingsRepository } from './email-settings.repository';
import { settingsView } from './email-settings-rules';

/** A stock's email-marketing settings as the routes read them (spec section 3). */
@Injectable()
export class EmailSettingsReads {
  constructor(private readonly settings: EmailSettingsRepository) {}

  /** The settings as the routes answer them (the key masked). */
  async view(stockId: string): Promise<EmailMarketingSettingsView | null> {
    const settings = await this.settings.get(stockId);
    return settings && settingsView(settings);
  }

  /** The dashboards' Email marketing column for many stocks at once. */
  async dashboard(stockIds: string[]): Promise<Record<string, { emailMarketing: boolean }>> {
    const configured = await this.settings.configured(stockIds);
    return Object.fromEntries(stockIds.map((id) => [id, { emailMarketing: configured.get(id) ?? false }]));
  }
}
