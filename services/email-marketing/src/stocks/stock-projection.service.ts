import { AppError, createLogger } from '@irp/platform';
import type { Stock } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

const log = createLogger('stock-projection');

/** What this service keeps of a stock (from `stock.upserted`; it never reads the stocks schema). */
export interface ProjectedStock {
  id: string;
  ticker: string;
  exchange: string;
  combinedTicker: string;
  companyName: string;
  apiKey: string | null;
  companyLogoUrl: string;
  confirmationEmail: string;
  announcementNotificationEmails: string;
  archived: boolean;
}

interface StockRow {
  id: string;
  ticker: string;
  exchange: string;
  combined_ticker: string;
  company_name: string;
  api_key: string | null;
  company_logo_url: string;
  confirmation_email: string;
  announcement_notification_emails: string;
  archived: boolean;
}

const toStock = (r: StockRow): ProjectedStock => ({
  id: r.id,
  ticker: r.ticker,
  exchange: r.exchange,
  combinedTicker: r.combined_ticker,
  companyName: r.company_name,
  apiKey: r.api_key,
  companyLogoUrl: r.company_logo_url,
  confirmationEmail: r.confirmation_email,
  announcementNotificationEmails: r.announcement_notification_emails,
  archived: r.archived,
});

@Injectable()
export class StockProjectionService {
  constructor(private readonly dataSource: DataSource) {}

  /** Applies a `stock.upserted`; an event not newer than the stored one is ignored. True when applied. */
  async apply(stock: Stock): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO email_marketing.stocks (id, ticker, exchange, combined_ticker, company_name, api_key,
         company_logo_url, confirmation_email, announcement_notification_emails, archived, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO UPDATE SET ticker = EXCLUDED.ticker, exchange = EXCLUDED.exchange,
         combined_ticker = EXCLUDED.combined_ticker, company_name = EXCLUDED.company_name,
         api_key = EXCLUDED.api_key, company_logo_url = EXCLUDED.company_logo_url,
         confirmation_email = EXCLUDED.confirmation_email,
         announcement_notification_emails = EXCLUDED.announcement_notification_emails,
         archived = EXCLUDED.archived, updated_at = EXCLUDED.updated_at
       WHERE email_marketing.stocks.updated_at < EXCLUDED.updated_at
       RETURNING id`,
      [
        stock.id,
        stock.ticker,
        stock.exchange,
        stock.combinedTicker,
        stock.companyName,
        stock.apiKey,
        stock.companyLogoUrl,
        stock.confirmationEmail,
        stock.announcementNotificationEmails,
        stock.archived,
        stock.updatedAt,
      ],
    );
    if (!rows.length)
      log.debug({ stockId: stock.id }, 'stock.upserted not newer than the projection; ignored');
    return rows.length > 0;
  }

  async byId(id: string): Promise<ProjectedStock | null> {
    const rows: StockRow[] = await this.dataSource.query(
      `SELECT * FROM email_marketing.stocks WHERE id = $1`,
      [id],
    );
    return rows[0] ? toStock(rows[0]) : null;
  }

  /** The stock, or NOT_FOUND (an event about a stock this service has not heard of yet). */
  async get(id: string): Promise<ProjectedStock> {
    const stock = await this.byId(id);
    if (!stock) throw new AppError('NOT_FOUND', `Stock ${id} not found`);
    return stock;
  }

  /** The stock whose product API key this is (the widget's subscribe), or null. */
  async byApiKey(apiKey: string): Promise<ProjectedStock | null> {
    if (!apiKey) return null;
    const rows: StockRow[] = await this.dataSource.query(
      `SELECT * FROM email_marketing.stocks WHERE api_key = $1 AND NOT archived ORDER BY updated_at DESC LIMIT 1`,
      [apiKey],
    );
    return rows[0] ? toStock(rows[0]) : null;
  }
}
