import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Widget API requests per stock and Sydney day. One counter row per day keeps the hot path a single
 * upsert; a stock's hits are the sum.
 */
@Entity({ name: 'api_hits' })
export class ApiHitEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ type: 'date' })
  day!: string;

  @Column({ type: 'bigint', default: 0 })
  count!: string;
}
