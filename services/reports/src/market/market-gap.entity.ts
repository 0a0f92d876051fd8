import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a gap is of: a stock-day's trades, the quotes, or the daily bars. */
export type GapKind = 'trades' | 'quote' | 'daily';

/**
 * A stock-day (or the quotes) the provider could not serve, kept until it is loaded: a report over it says
 * the data is missing rather than showing zeros, and `reported` makes its `market-data.failed` go out once.
 */
@Entity({ name: 'market_gaps' })
export class MarketGapEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @PrimaryColumn({ type: 'date' })
  day!: string;

  @PrimaryColumn({ type: 'text' })
  kind!: GapKind;

  @Column({ type: 'text' })
  reason!: string;

  @Column({ name: 'first_failed_at', type: 'timestamptz', default: () => 'now()' })
  firstFailedAt!: Date;

  @Column({ name: 'last_failed_at', type: 'timestamptz', default: () => 'now()' })
  lastFailedAt!: Date;

  @Column({ type: 'boolean', default: false })
  reported!: boolean;
}

/** A gap as the jobs record it and the reports read it. */
export type MarketGap = Pick<MarketGapEntity, 'stockId' | 'day' | 'kind' | 'reason'>;
