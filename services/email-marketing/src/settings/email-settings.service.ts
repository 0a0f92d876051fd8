import { AppError } from '@irp/platform';
import { Actor, EmailMarketingSettings, isEmailAddress, splitEmailList } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionService } from '../stocks/stock-projection.service';

interface SettingsRow {
  stock_id: string;
  provider: EmailMarketingSettings['provider'];
  list_id: string;
  api_key: string;
  template_id: string;
  reply_to: string;
  from_name: string;
  saved_segment_id: string;
  client_id: string;
  test_email_addresses: string;
}

const toSettings = (r: SettingsRow): EmailMarketingSettings => ({
  provider: r.provider,
  listId: r.list_id,
  apiKey: r.api_key,
  templateId: r.template_id,
  replyTo: r.reply_to,
  fromName: r.from_name,
  savedSegmentId: r.saved_segment_id,
  clientId: r.client_id,
  testEmailAddresses: r.test_email_addresses,
});

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

/** A stock's email-marketing settings (spec section 3). */
@Injectable()
export class EmailSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stocks: StockProjectionService,
  ) {}

  async get(stockId: string): Promise<EmailMarketingSettings | null> {
    const rows: SettingsRow[] = await this.dataSource.query(
      `SELECT * FROM email_marketing.settings WHERE stock_id = $1`,
      [stockId],
    );
    return rows[0] ? toSettings(rows[0]) : null;
  }

  async save(actor: Actor, stockId: string, input: EmailMarketingSettings): Promise<EmailMarketingSettings> {
    await this.stocks.get(stockId);
    const settings = normaliseSettings(input);
    const problem = settingsProblem(settings);
    if (problem) throw new AppError('BAD_REQUEST', problem);
    const rows: SettingsRow[] = await this.dataSource.query(
      `INSERT INTO email_marketing.settings (stock_id, provider, list_id, api_key, template_id, reply_to, from_name,
         saved_segment_id, client_id, test_email_addresses, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), $11)
       ON CONFLICT (stock_id) DO UPDATE SET provider = EXCLUDED.provider, list_id = EXCLUDED.list_id,
         api_key = EXCLUDED.api_key, template_id = EXCLUDED.template_id, reply_to = EXCLUDED.reply_to,
         from_name = EXCLUDED.from_name, saved_segment_id = EXCLUDED.saved_segment_id,
         client_id = EXCLUDED.client_id, test_email_addresses = EXCLUDED.test_email_addresses,
         updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING *`,
      [
        stockId,
        settings.provider,
        settings.listId,
        settings.apiKey,
        settings.templateId,
        settings.replyTo,
        settings.fromName,
        settings.savedSegmentId,
        settings.clientId,
        settings.testEmailAddresses,
        actor.username,
      ],
    );
    return toSettings(rows[0]);
  }

  /** The dashboards' Email marketing column for many stocks at once. */
  async dashboard(stockIds: string[]): Promise<Record<string, { emailMarketing: boolean }>> {
    const rows: Array<{ stock_id: string; configured: boolean }> = stockIds.length
      ? await this.dataSource.query(
          `SELECT stock_id, (api_key <> '' AND list_id <> '') AS configured
           FROM email_marketing.settings WHERE stock_id = ANY($1::uuid[])`,
          [stockIds],
        )
      : [];
    const configured = new Map(rows.map((r) => [r.stock_id, r.configured]));
    return Object.fromEntries(stockIds.map((id) => [id, { emailMarketing: configured.get(id) ?? false }]));
  }
}
