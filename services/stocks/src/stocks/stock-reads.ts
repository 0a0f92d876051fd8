import {
  combinedTickerOf,
  ErrorCode,
  parseCombinedTicker,
  Stock,
  StockListCursor,
  StockListPage,
  stockListPageAt,
  VersionHistory,
} from '@irp/proto';
import { AppError, Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockEntity } from './stock.entity';
import { StockRef, StocksRepository } from './stocks.repository';
import { notFoundMessage, toStock } from './stock-rules';

/**
 * Reading stocks: the whole list, by ids, by combined ticker, its version history, and the lookups the
 * changes, notes and referers start from (404 'Stock {combinedTicker} not found').
 */
@Injectable()
export class StockReads {
  constructor(private readonly stocks: StocksRepository) {}

  /** The last whole list, where each stock is in it, and the fingerprint of the table it was read at. */
  private listCache?: { fingerprint: string; stocks: Stock[]; indexOf: Map<string, number> };

  /**
   * One page of every stock (the staff dashboard, the services' projections), newest first: `limit` stocks
   * after the cursor's stock (the first page without one), and the cursor of the next page. A page after a
   * stock that is no longer listed starts at the first stock that sorts after it. The mapped list is kept
   * while the table's fingerprint (which changes with every committed change, StocksRepository.fingerprint)
   * is unchanged.
   */
  async page(after: StockListCursor | undefined, limit: number): Promise<StockListPage> {
    const { stocks, indexOf } = await this.cachedList();
    const start = !after ? 0 : (indexOf.get(after.id) ?? firstAfter(stocks, after) - 1) + 1;
    return stockListPageAt(stocks, start, limit);
  }

  private async cachedList() {
    const fingerprint = await this.stocks.fingerprint();
    if (this.listCache?.fingerprint !== fingerprint) {
      // Sorted again by the mapped values, which the cursor holds (`created` to the millisecond).
      const stocks = (await this.stocks.all()).map(toStock).sort(inListOrder);
      this.listCache = { fingerprint, stocks, indexOf: new Map(stocks.map((s, i) => [s.id, i])) };
    }
    return this.listCache;
  }

  async getByIds(ids: readonly string[]): Promise<Stock[]> {
    if (!ids.length) return [];
    return (await this.stocks.byIds(ids)).map(toStock);
  }

  async get(combinedTicker: string): Promise<Stock> {
    return toStock(await this.requireByCombinedTicker(combinedTicker));
  }

  /** The id of the stock a `TICKER:EXCHANGE` (or bare ASX `TICKER`) names, or null. */
  async resolve(combinedTicker: string): Promise<string | null> {
    const ref = parseCombinedTicker(combinedTicker);
    if (!ref) return null;
    return this.stocks.idOf(ref);
  }

  async versionHistory(combinedTicker: string): Promise<VersionHistory[]> {
    const stock = await this.requireByCombinedTicker(combinedTicker);
    const rows = await this.stocks.versions(stock.id);
    return rows.map((r) => ({
      versionId: r.versionId,
      changedOn: r.changedOn.toISOString(),
      changedBy: r.changedBy,
      changes: r.changes,
    }));
  }

  /** The stock a `TICKER:EXCHANGE` (or bare ASX `TICKER`) names, or 404 'Stock {combinedTicker} not found'. */
  async requireByCombinedTicker(combinedTicker: string): Promise<StockEntity> {
    const ref = parseCombinedTicker(combinedTicker);
    if (!ref) throw new AppError(ErrorCode.NotFound, notFoundMessage(combinedTicker.trim()));
    return this.require(undefined, ref, false);
  }

  /** The stock `ref` names (inside `tx`, row-locked when `lock`), or 404. */
  async require(tx: Tx | undefined, ref: StockRef, lock: boolean): Promise<StockEntity> {
    const stock = await this.stocks.find(ref, { tx, lock });
    if (!stock)
      throw new AppError(
        ErrorCode.NotFound,
        notFoundMessage('id' in ref ? ref.id : combinedTickerOf(ref.ticker, ref.exchange)),
      );
    return stock;
  }
}

/** The list's order: newest `created` first, then by `id`. */
const inListOrder = (a: StockListCursor, b: StockListCursor) =>
  a.created === b.created ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.created > b.created ? -1 : 1;

/** The index of the first stock that sorts after the cursor; the length if none. */
function firstAfter(stocks: readonly Stock[], cursor: StockListCursor): number {
  let low = 0;
  let high = stocks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (inListOrder(stocks[mid], cursor) > 0) high = mid;
    else low = mid + 1;
  }
  return low;
}
