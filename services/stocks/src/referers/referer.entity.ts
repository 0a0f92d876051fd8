import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A page that embedded the stock's widget: how often, first and last seen. */
@Entity({ name: 'referers' })
export class RefererEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ type: 'text' })
  url!: string;

  @Column({ type: 'int', default: 1 })
  count!: number;

  @Column({ type: 'timestamptz' })
  first!: Date;

  @Column({ type: 'timestamptz' })
  last!: Date;
}
