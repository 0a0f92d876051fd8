import { Column, Entity, PrimaryColumn } from 'typeorm';
import { asNumber } from '../database/number-transformer';

/** One daily OHLCV bar of a stock (Stock Data), in dollars as the provider gives them. */
@Entity({ name: 'daily_prices' })
export class DailyPriceEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ type: 'date' })
  day!: string;

  @Column({ type: 'numeric', precision: 18, scale: 4, transformer: asNumber })
  open!: number;

  @Column({ type: 'numeric', precision: 18, scale: 4, transformer: asNumber })
  high!: number;

  @Column({ type: 'numeric', precision: 18, scale: 4, transformer: asNumber })
  low!: number;

  @Column({ type: 'numeric', precision: 18, scale: 4, transformer: asNumber })
  close!: number;

  @Column({ type: 'bigint', transformer: asNumber })
  volume!: number;
}
