import { StockProjection } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

export type { ProjectedStock } from './stock-projection.entity';

/** The service's projection of the stocks (the platform's module); matching reads it at query time. */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, { service: 'invoicing', entity: StockProjectionEntity });
  }
}
