import type { AdminStockPage } from '@irp/proto';
import type { Contributor } from '../common/contributors';

/**
 * What one service adds to the admin stock page (GET /api/stock/{combinedTicker}) beside the stock: its own
 * fields only (the reports service: `currentMarketData`).
 */
export type StockPageContribution = Partial<Pick<AdminStockPage, 'currentMarketData'>>;

/**
 * A service that owns part of the stock page. Its gateway adapter asks that service over Kafka for the
 * stock named, within the composer's deadline; `empty` is its part when it fails or is too slow (then
 * `name` is listed in the page's `unavailable`).
 */
export interface StockPageContributor extends Contributor {
  readonly empty: StockPageContribution;
  contribute(combinedTicker: string, timeoutMs: number): Promise<StockPageContribution>;
}

/** Multi-provider token: the registered contributors (STOCK_PAGE_CONTRIBUTOR_CLASSES). */
export const STOCK_PAGE_CONTRIBUTORS = Symbol('STOCK_PAGE_CONTRIBUTORS');
