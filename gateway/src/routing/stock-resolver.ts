import type { StockRef } from '@irp/proto';

/**
 * Resolves the value a route names its stock by (a route entry's `access.stock.ref.by`) to the stock id
 * that `stockRoles` are keyed by: a combinedTicker through the cached stock directory, a product API key
 * through the stocks service, a comment's guid through the announcements service. Null when there is no
 * such stock (the guard answers 404).
 */
export interface StockResolver {
  stockIdOf(by: Exclude<StockRef['by'], 'stockId' | undefined>, value: string): Promise<string | null>;
}
export const STOCK_RESOLVER = Symbol('STOCK_RESOLVER');

export const NO_STOCK_WITH_API_KEY = 'No stock has this product API key';

/** The 404's message when the value a request names its stock by names none. */
export function notFoundMessage(by: Exclude<StockRef['by'], 'stockId' | undefined>, value: string): string {
  if (by === 'combinedTicker') return `Stock ${value} not found`;
  if (by === 'apiKey') return NO_STOCK_WITH_API_KEY;
  return 'Not found';
}
