import { StockProjection } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

/** What hears of a stock that changed; the projection waits for it, so its failure fails the change's handler. */
export type StockChangedListener = (stock: StockProjectionEntity) => Promise<void>;

/**
 * The service's projection of the stocks (the platform's module), read by every feature here. Listeners hear
 * of each stock that changed: the initial poll registers one (a stock with Poll on whose initial poll is
 * not complete gets one). They register themselves, so this folder, beneath every feature, imports none.
 */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  private readonly listeners: StockChangedListener[] = [];

  constructor(dataSource: DataSource) {
    super(dataSource, {
      service: 'announcements',
      entity: StockProjectionEntity,
      onChanged: async (stock) => {
        for (const listener of this.listeners) await listener(stock);
      },
    });
  }

  onStockChanged(listener: StockChangedListener): void {
    this.listeners.push(listener);
  }
}
