import { ConfigError } from '@irp/platform';
import { Actor, EmailMarketingSettings } from '@irp/proto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecretBox } from './secret-box';

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

/**
 * Email-marketing settings per stock; the only place that queries their table. The provider's API key is
 * stored sealed (AES-256-GCM, EMAIL_SECRETS_KEY) and opened only here.
 */
@Injectable()
export class EmailSettingsRepository implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {}

  /** A key that cannot open the stored provider keys (changed, or another install's) stops the start. */
  async onApplicationBootstrap(): Promise<void> {
    const rows: Array<{ api_key: string }> = await this.dataSource.query(
      `SELECT api_key FROM email_marketing.settings WHERE api_key <> '' LIMIT 1`,
    );
    if (!rows[0]) return;
    try {
      this.box.open(rows[0].api_key);
    } catch {
      throw new ConfigError(
        'Invalid configuration:\n  EMAIL_SECRETS_KEY: it does not decrypt the stored provider API keys (it is not the key they were encrypted with)',
      );
    }
  }

  private toSettings(r: SettingsRow): EmailMarketingSettings {
    return {
      provider: r.provider,
      listId: r.list_id,
      apiKey: this.box.open(r.api_key),
      templateId: r.template_id,
      replyTo: r.reply_to,
      fromName: r.from_name,
      savedSegmentId: r.saved_segment_id,
      clientId: r.client_id,
      testEmailAddresses: r.test_email_addresses,
    };
  }

  async get(stockId: string): Promise<EmailMarketingSettings | null> {
    const rows: SettingsRow[] = await this.dataSource.query(
      `SELECT * FROM email_marketing.settings WHERE stock_id = $1`,
      [stockId],
    );
    return rows[0] ? this.toSettings(rows[0]) : null;
  }

  /**
   * Stores a stock's settings (who saved them, and when) and reads them back as stored. An `apiKey` of null
   * keeps the stored key (a new row: none).
   */
  async save(
    actor: Actor,
    stockId: string,
    settings: Omit<EmailMarketingSettings, 'apiKey'> & { apiKey: string | null },
  ): Promise<EmailMarketingSettings> {
    const rows: SettingsRow[] = await this.dataSource.query(
      `INSERT INTO email_marketing.settings (stock_id, provider, list_id, api_key, template_id, reply_to, from_name,
         saved_segment_id, client_id, test_email_addresses, updated_at, updated_by)
       VALUES ($1, $2, $3, COALESCE($4, ''), $5, $6, $7, $8, $9, $10, now(), $11)
       ON CONFLICT (stock_id) DO UPDATE SET provider = EXCLUDED.provider, list_id = EXCLUDED.list_id,
         api_key = COALESCE($4, email_marketing.settings.api_key), template_id = EXCLUDED.template_id,
         reply_to = EXCLUDED.reply_to, from_name = EXCLUDED.from_name,
         saved_segment_id = EXCLUDED.saved_segment_id, client_id = EXCLUDED.client_id,
         test_email_addresses = EXCLUDED.test_email_addresses, updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING *`,
      [
        stockId,
        settings.provider,
        settings.listId,
        settings.apiKey === null ? null : this.box.seal(settings.apiKey),
        settings.templateId,
        settings.replyTo,
        settings.fromName,
        settings.savedSegmentId,
        settings.clientId,
        settings.testEmailAddresses,
        actor.username,
      ],
    );
    return this.toSettings(rows[0]);
  }

  /** Which of these stocks have their provider key and list saved (a stock without settings has not). */
  async configured(stockIds: string[]): Promise<Map<string, boolean>> {
    const rows: Array<{ stock_id: string; configured: boolean }> = stockIds.length
      ? await this.dataSource.query(
          `SELECT stock_id, (api_key <> '' AND list_id <> '') AS configured
           FROM email_marketing.settings WHERE stock_id = ANY($1::uuid[])`,
          [stockIds],
        )
      : [];
    return new Map(rows.map((r) => [r.stock_id, r.configured]));
  }
}
