/**
 * Resolves a combinedTicker (ticker:exchange) to the stock id that `stockRoles` are keyed by. The stocks
 * service owns stocks; the gateway's StocksModule provides the Kafka-backed, cached directory under this
 * token, and the guard's StockResolver (routing/services-stock-resolver.ts) reads combinedTickers through it.
 */
export interface StockDirectory {
  stockIdOf(combinedTicker: string): Promise<string | null>;
}
export const STOCK_DIRECTORY = Symbol('STOCK_DIRECTORY');
