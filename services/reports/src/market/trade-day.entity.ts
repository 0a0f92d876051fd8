import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A loaded stock-day and how many trades it had, so the jobs skip it. */
@Entity({ name: 'trade_days' })
export class TradeDayEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ name: 'trade_day', type: 'date' })
  tradeDay!: string;

  @Column({ type: 'int' })
  trades!: number;

  @Column({ name: 'loaded_at', type: 'timestamptz', default: () => 'now()' })
  loadedAt!: Date;
}
