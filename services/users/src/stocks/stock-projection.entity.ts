import { StockProjectionColumns } from '@irp/platform';
import { Column, Entity } from 'typeorm';

/**
 * What this service keeps of a stock (the platform's stock projection fills it): the name and archive a
 * permission row and the company search show. Each column is the proto Stock's field of the same name.
 */
@Entity({ name: 'stocks' })
export class StockProjectionEntity extends StockProjectionColumns {
  @Column({ name: 'company_name', type: 'text', default: '' })
  companyName!: string;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;
}
