import { Column, Entity, PrimaryColumn } from 'typeorm';
import { asNumber } from '../database/number-transformer';

/**
 * The sums of one loaded stock-day with trades (written with its trades, MarketRepository.replaceDay): what
 * the reports read instead of the trades. Prices in hundredths of a cent; open and close are the prices of
 * the day's first and last trade by seq.
 */
@Entity({ name: 'day_stats' })
export class DayStatsEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ name: 'trade_day', type: 'date' })
  tradeDay!: string;

  @Column({ name: 'num_trades', type: 'int' })
  numTrades!: number;

  @Column({ type: 'bigint', transformer: asNumber })
  volume!: number;

  /** Sum of price_e4 x volume, exact (numeric). */
  @Column({ name: 'value_e4', type: 'numeric', transformer: asNumber })
  valueE4!: number;

  @Column({ name: 'high_e4', type: 'bigint', transformer: asNumber })
  highE4!: number;

  @Column({ name: 'low_e4', type: 'bigint', transformer: asNumber })
  lowE4!: number;

  @Column({ name: 'open_e4', type: 'bigint', transformer: asNumber })
  openE4!: number;

  @Column({ name: 'close_e4', type: 'bigint', transformer: asNumber })
  closeE4!: number;
}
