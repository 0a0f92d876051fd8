import { Column, Entity, PrimaryColumn } from 'typeorm';
import { asNumber } from '../database/number-transformer';

/**
 * One broker's buy and sell sides of one loaded stock-day (written with its trades,
 * MarketRepository.replaceDay): trades, volume and value (hundredths of a cent x shares). A trade between a
 * broker and itself counts on both sides.
 */
@Entity({ name: 'broker_days' })
export class BrokerDayEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ name: 'trade_day', type: 'date' })
  tradeDay!: string;

  @PrimaryColumn({ name: 'broker_id', type: 'int' })
  brokerId!: number;

  @Column({ type: 'int' })
  buys!: number;

  @Column({ name: 'buy_vol', type: 'bigint', transformer: asNumber })
  buyVol!: number;

  @Column({ name: 'buy_value_e4', type: 'numeric', transformer: asNumber })
  buyValueE4!: number;

  @Column({ type: 'int' })
  sells!: number;

  @Column({ name: 'sell_vol', type: 'bigint', transformer: asNumber })
  sellVol!: number;

  @Column({ name: 'sell_value_e4', type: 'numeric', transformer: asNumber })
  sellValueE4!: number;
}
