import { StockProjectionColumns } from '@irp/platform';
import { Column, Entity } from 'typeorm';

/**
 * What this service keeps of a stock (the platform's stock projection fills it): whether its market data
 * is read (disableMarketData, archived) and the name a report shows. Each column is the proto Stock's field
 * of the same name.
 */
@Entity({ name: 'stocks' })
export class StockProjectionEntity extends StockProjectionColumns {
  @Column({ name: 'company_name', type: 'text', default: '' })
  companyName!: string;

  @Column({ name: 'disable_market_data', type: 'boolean', default: false })
  disableMarketData!: boolean;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;
}

export type ProjectedStock = StockProjectionEntity;
