import { ConfigError } from '@irp/platform';
import { Actor, EmailMarketingSettings } from '@irp/proto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EmailSettingsEntity } from './email-settings.entity';
import { SecretBox } from './secret-box';

/** The settings' columns (the key sealed), each as its property: the proto's settings but the key opened. */
type SettingsRow = Pick<EmailSettingsEntity, keyof EmailMarketingSettings>;
const COLUMNS = `provider, list_id AS "listId", api_key AS "apiKey", template_id AS "templateId",
  reply_to AS "replyTo", from_name AS "fromName", saved_segment_id AS "savedSegmentId", client_id AS "clientId",
  test_email_addresses AS "testEmailAddresses"`;

/** One row of settings from the values of `rowValues` (a null key becomes '' on a new row). */
const INSERT_ROW = `INSERT INTO email_marketing.settings (stock_id, provider, list_id, api_key, template_id, reply_to,
         from_name, saved_segment_id, client_id, test_email_addresses, updated_at, updated_by)
       VALUES ($1, $2, $3, COALESCE($4, ''), $5, $6, $7, $8, $9, $10, now(), $11)`;

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
    const rows: Array<Pick<EmailSettingsEntity, 'apiKey'>> = await this.dataSource.query(
      `SELECT api_key AS "apiKey" FROM email_marketing.settings WHERE api_key <> '' LIMIT 1`,
    );
    if (!rows[0]) return;
    try {
      this.box.open(rows[0].apiKey);
    } catch {
      throw new ConfigError(
        'Invalid configuration:\n  EMAIL_SECRETS_KEY: it does not decrypt the stored provider API keys (it is not the key they were encrypted with)',
      );
    }
  }

  /** The values of INSERT_ROW: the key sealed; a null key stays null (an upsert then keeps the stored one). */
  private rowValues(
    stockId: string,
    settings: Omit<EmailMarketingSettings, 'apiKey'> & { apiKey: string | null },
    by: string,
  ): unknown[] {
    return [
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
      by,
    ];
  }

  private toSettings(r: SettingsRow): EmailMarketingSettings {
    return {
      provider: r.provider,
      listId: r.listId,
      apiKey: this.box.open(r.apiKey),
      templateId: r.templateId,
      replyTo: r.replyTo,
      fromName: r.fromName,
      savedSegmentId: r.savedSegmentId,
      clientId: r.clientId,
      testEmailAddresses: r.testEmailAddresses,
    };
  }

  async get(stockId: string): Promise<EmailMarketingSettings | null> {
    const rows: SettingsRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM email_marketing.settings WHERE stock_id = $1`,
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
      `${INSERT_ROW}
       ON CONFLICT (stock_id) DO UPDATE SET provider = EXCLUDED.provider, list_id = EXCLUDED.list_id,
         api_key = COALESCE($4, email_marketing.settings.api_key), template_id = EXCLUDED.template_id,
         reply_to = EXCLUDED.reply_to, from_name = EXCLUDED.from_name,
         saved_segment_id = EXCLUDED.saved_segment_id, client_id = EXCLUDED.client_id,
         test_email_addresses = EXCLUDED.test_email_addresses, updated_at = now(), updated_by = EXCLUDED.updated_by
       RETURNING ${COLUMNS}`,
      this.rowValues(stockId, settings, actor.username),
    );
    return this.toSettings(rows[0]);
  }

  /**
   * Stores a stock's first settings, named as saved by `by`; false (nothing written) when the stock has
   * settings already: what someone saved is never overwritten.
   */
  async insertIfAbsent(by: string, stockId: string, settings: EmailMarketingSettings): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `${INSERT_ROW}
       ON CONFLICT (stock_id) DO NOTHING
       RETURNING stock_id`,
      this.rowValues(stockId, settings, by),
    );
    return rows.length > 0;
  }

  /** Which of these stocks have their provider key and list saved (a stock without settings has not). */
  async configured(stockIds: string[]): Promise<Map<string, boolean>> {
    // `configured` fills the dashboards' Email marketing column (EmailSettingsReads.dashboard).
    const rows: Array<Pick<EmailSettingsEntity, 'stockId'> & { configured: boolean }> = stockIds.length
      ? await this.dataSource.query(
          `SELECT stock_id AS "stockId", (api_key <> '' AND list_id <> '') AS configured
           FROM email_marketing.settings WHERE stock_id = ANY($1::uuid[])`,
          [stockIds],
        )
      : [];
    return new Map(rows.map((r) => [r.stockId, r.configured]));
  }
}
