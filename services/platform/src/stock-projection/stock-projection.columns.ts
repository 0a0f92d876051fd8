import { Column, PrimaryColumn } from 'typeorm';

/**
 * The columns every stock projection keeps: a service's entity extends this and adds its own, each named as
 * the proto Stock's field (`@Column({ name: 'company_name' }) companyName`). Not an entity itself (TypeORM
 * copies the columns into each subclass's table).
 */
export abstract class StockProjectionColumns {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  ticker!: string;

  @Column({ type: 'text' })
  exchange!: string;

  @Column({ name: 'combined_ticker', type: 'text' })
  combinedTicker!: string;

  /** The stock's `updatedAt` of the last version applied; an older one is ignored. */
  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
