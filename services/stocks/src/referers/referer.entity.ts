import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A page that embedded the stock's widget (origin and path): how often, first and last seen. The url
 * '(other)' (OTHER_REFERERS) counts the pages seen after the stock reached MAX_REFERERS_PER_STOCK.
 */
@Entity({ name: 'referers' })
export class RefererEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ type: 'text' })
  url!: string;

  /** bigint like api_hits.count (a busy page outgrows int); the driver returns it as text. */
  @Column({ type: 'bigint', default: 1 })
  count!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  first!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  last!: Date;
}
