import { StockProjection } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

export type { ProjectedStock } from './stock-projection.entity';

/**
 * The service's projection of the stocks (the platform's module). Listeners hear of each stock that
 * changed (the market jobs load a new watchlist stock's history without waiting for their next run).
 */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  private readonly listeners: Array<(stock: StockProjectionEntity) => void> = [];

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
