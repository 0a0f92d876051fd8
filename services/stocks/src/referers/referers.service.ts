import {
  combinedTickerOf,
  ErrorCode,
  MAX_REFERER_URL_LENGTH,
  MAX_REFERERS_PER_STOCK_IN_REPORT,
  Referer,
  StockReferers,
  WidgetStock,
} from '@irp/proto';
import { AppError } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockReads } from '../stocks/stock-reads';
import { ReferersRepository, StoredReferer } from './referers.repository';

export const UNKNOWN_API_KEY_MESSAGE = 'Unknown API key';

const toReferer = (r: StoredReferer): Referer => ({
  url: r.url,
  count: Number(r.count),
  first: r.first.toISOString(),
  last: r.last.toISOString(),
});

/** Where the public widget is embedded (referers) and how often it is called (hits). */
@Injectable()
export class ReferersService {
  constructor(
    private readonly referers: ReferersRepository,
    private readonly stocks: StockReads,
  ) {}

  /**
   * One stock's referers, most recently seen first (every recorded page and the OTHER_REFERERS row, at
   * most MAX_REFERERS_PER_STOCK + 1 rows), and its hits ever.
   */
  async forStock(combinedTicker: string): Promise<StockReferers> {
    const stock = await this.stocks.requireByCombinedTicker(combinedTicker);
    const { referers, hits } = await this.referers.forStock(stock.id);
    return {
      ticker: stock.ticker,
      exchange: stock.exchange,
      combinedTicker: combinedTickerOf(stock.ticker, stock.exchange),
      hits,
      referers: referers.map(toReferer),
    };
  }

  /**
   * Every stock (archived too) by ticker, with its hits and its MAX_REFERERS_PER_STOCK_IN_REPORT most
   * recently seen referers (the stock's own report has them all): two queries for any number of stocks,
   * the answer bounded by the number of stocks.
   */
  async all(): Promise<StockReferers[]> {
    const { stocks, referers } = await this.referers.all(MAX_REFERERS_PER_STOCK_IN_REPORT);
    const byStock = new Map<string, Referer[]>();
    for (const r of referers) {
      const list = byStock.get(r.stockId);
      if (list) list.push(toReferer(r));
      else byStock.set(r.stockId, [toReferer(r)]);
    }
    return stocks.map((s) => ({
      ticker: s.ticker,
      exchange: s.exchange,
      combinedTicker: combinedTickerOf(s.ticker, s.exchange),
      hits: Number(s.hits),
      referers: byStock.get(s.id) ?? [],
    }));
  }

  /**
   * The stock of an API key, recording the hit and its referer. Archived and expired-subscription stocks
   * are recorded too (the request was answered, with 404 by the gateway), so staff can see who still
   * calls the API.
   */
  async widgetLookup(
    apiKey: string,
    referer?: string,
  ): Promise<{ stockId: string; archived: boolean; subscriptionExpired: boolean; stock: WidgetStock }> {
    // The gateway sends origin + path already cut; cut here too, as the table's bound must not depend on it.
    const url = referer?.trim().slice(0, MAX_REFERER_URL_LENGTH) || null;
    const s = await this.referers.widgetLookup(apiKey.trim(), url);
    if (!s) throw new AppError(ErrorCode.Unauthenticated, UNKNOWN_API_KEY_MESSAGE);
    return {
      stockId: s.id,
      archived: s.archived,
      subscriptionExpired: s.subscriptionExpired,
      stock: {
        ticker: s.ticker,
        exchange: s.exchange,
        combinedTicker: combinedTickerOf(s.ticker, s.exchange),
        isin: s.isin,
        companyName: s.companyName,
        websiteUrl: s.websiteUrl,
        companyLogoUrl: s.companyLogoUrl,
      },
    };
  }
}
