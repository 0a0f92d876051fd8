import { combinedTickerOf, ErrorCode, parseCombinedTicker, Stock, VersionHistory } from '@irp/proto';
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

  /** The last whole list and the fingerprint of the table it was read at. */
  private listCache?: { fingerprint: string; stocks: Stock[] };

  /**
   * Every stock (the staff dashboard). The mapped list is kept while the table's fingerprint (which
   * changes with every committed change, StocksRepository.fingerprint) is unchanged.
   */
  async list(): Promise<Stock[]> {
    const fingerprint = await this.stocks.fingerprint();
    if (this.listCache?.fingerprint === fingerprint) return this.listCache.stocks;
    const stocks = (await this.stocks.all()).map(toStock);
    this.listCache = { fingerprint, stocks };
    return stocks;
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
