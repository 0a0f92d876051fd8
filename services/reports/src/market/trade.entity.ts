import { Column, Entity, PrimaryColumn } from 'typeorm';
import { asNumber } from '../database/number-transformer';

/**
 * One provider trade with its buyer and seller broker ids; price in hundredths of a cent (`price_e4`:
 * $0.0015 is 15). A stock-day's rows are replaced together (MarketRepository.replaceDay, loaded with COPY).
 */
@Entity({ name: 'trades' })
export class TradeEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ name: 'trade_day', type: 'date' })
  tradeDay!: string;

  @PrimaryColumn({ type: 'int' })
  seq!: number;

  @Column({ name: 'traded_at', type: 'timestamptz' })
  tradedAt!: Date;

  @Column({ name: 'price_e4', type: 'bigint', transformer: asNumber })
  priceE4!: number;

  @Column({ type: 'bigint', transformer: asNumber })
  volume!: number;

  @Column({ name: 'buyer_broker', type: 'int' })
  buyerBroker!: number;

  @Column({ name: 'seller_broker', type: 'int' })
  sellerBroker!: number;

  /** The provider's condition codes, comma-separated. */
  @Column({ type: 'text', default: '' })
  conditions!: string;
}
