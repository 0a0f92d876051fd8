import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { StocksRepository } from './stocks.repository';

/** Product API keys: a fresh one for the settings form, and the stock a widget's key belongs to. */
@Injectable()
export class StockApiKeys {
  constructor(private readonly stocks: StocksRepository) {}

  /** A random key no stock uses yet; it is stored only when a stock is saved with it. */
  async newApiKey(): Promise<string> {
    for (;;) {
      const apiKey = randomBytes(16).toString('hex');
      if (!(await this.stocks.apiKeyTaken(apiKey))) return apiKey;
    }
  }

  /**
   * The stock whose product API key this is (archived too), or null. Records nothing: a widget request's
   * hit and referer are `widgetLookup`'s (referers.service.ts).
   */
  async resolveByApiKey(apiKey: string): Promise<string | null> {
    const key = apiKey.trim();
    if (!key) return null;
    return this.stocks.idByApiKey(key);
  }
}
