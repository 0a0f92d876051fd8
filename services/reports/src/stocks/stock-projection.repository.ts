import { StockProjection } from '@irp/platform';
import type { Stock } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

export type { ProjectedStock } from './stock-projection.entity';

/** On the watchlist: the stocks whose market data is read (not archived, market data not disabled). */
const watched = (stock: StockProjectionEntity | null): stock is StockProjectionEntity =>
  stock !== null && !stock.archived && !stock.disableMarketData;

/**
 * The service's projection of the stocks (the platform's module). Listeners hear of each stock that
 * changed (the market jobs load a new watchlist stock's history without waiting for their next run), and
 * of each stock that joined the watchlist: new to the projection, archived or disabled before, or under
 * another combinedTicker before (a ticker change: the quote of the old code is not its own).
 */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  private readonly listeners: Array<(stock: StockProjectionEntity) => void> = [];
  private readonly joinListeners: Array<(stock: StockProjectionEntity) => void> = [];

  constructor(dataSource: DataSource) {
    super(dataSource, {
      service: 'reports',
      entity: StockProjectionEntity,
      onChanged: async (stock) => {
        for (const listener of this.listeners) listener(stock);
      },
    });
  }

  onStockChanged(listener: (stock: StockProjectionEntity) => void): void {
    this.listeners.push(listener);
  }

  onStockJoinedWatchlist(listener: (stock: StockProjectionEntity) => void): void {
    this.joinListeners.push(listener);
  }

  /** Applies a stock (the platform's), then tells the join listeners when it joined the watchlist. */
  override async receive(stock: Stock): Promise<boolean> {
    const before = this.joinListeners.length ? await this.byId(stock.id) : null;
    const changed = await super.receive(stock);
    if (!changed || !this.joinListeners.length) return changed;
    const after = await this.byId(stock.id);
    if (watched(after) && (!watched(before) || before.combinedTicker !== after.combinedTicker))
      for (const listener of this.joinListeners) listener(after);
    return changed;
  }

  /** Every stock this service knows. */
  async ids(): Promise<string[]> {
    const rows = await this.dataSource.getRepository(StockProjectionEntity).find({ select: { id: true } });
    return rows.map((r) => r.id);
  }

  /** The stocks whose market data is read: not archived, market data not disabled. */
  watchlist(): Promise<StockProjectionEntity[]> {
    return this.dataSource
      .getRepository(StockProjectionEntity)
      .find({ where: { archived: false, disableMarketData: false }, order: { combinedTicker: 'ASC' } });
  }
}
