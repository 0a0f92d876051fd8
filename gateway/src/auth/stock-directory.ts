/**
 * Resolves a combinedTicker (ticker:exchange) to the stock id that `stockRoles` are keyed by. The stocks
 * service owns stocks; the gateway module that exposes stock routes provides the Kafka-backed directory
 * under this token. Until then no per-stock route exists, and the guard refuses with 503 rather than guess.
 */
export interface StockDirectory {
  stockIdOf(combinedTicker: string): Promise<string | null>;
}
export const STOCK_DIRECTORY = Symbol('STOCK_DIRECTORY');
