import type { StockRef } from '@irp/proto';

/**
 * Resolves the value a route names its stock by (a route entry's `access.stock.ref.by`) to the stock id
 * that `stockRoles` are keyed by: a combinedTicker through the cached stock directory, a comment's guid
 * through the announcements service. Null when there is no such stock (the guard answers 404).
 */
export interface StockResolver {
  stockIdOf(by: Exclude<StockRef['by'], 'stockId' | undefined>, value: string): Promise<string | null>;
}
export const STOCK_RESOLVER = Symbol('STOCK_RESOLVER');
