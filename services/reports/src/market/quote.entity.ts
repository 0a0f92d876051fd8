import { Column, Entity, PrimaryColumn } from 'typeorm';
import { asNumber } from '../database/number-transformer';

/** Where a quote came from: the provider (a sync) or a staff user's edit on the Market tab. */
export type QuoteSource = 'provider' | 'manual';

/** A stock's current quote (the Market tab's fields), in dollars as the provider and the tab give them. */
@Entity({ name: 'quotes' })
export class QuoteEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  ask!: number | null;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  bid!: number | null;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  last!: number | null;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  movement!: number | null;

  @Column({
    name: 'movement_percent',
    type: 'numeric',
    precision: 12,
    scale: 4,
    nullable: true,
    transformer: asNumber,
  })
  movementPercent!: number | null;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  open!: number | null;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  high!: number | null;

  @Column({ type: 'numeric', precision: 18, scale: 4, nullable: true, transformer: asNumber })
  low!: number | null;

  @Column({ type: 'numeric', precision: 20, scale: 0, nullable: true, transformer: asNumber })
  volume!: number | null;

  @Column({
    name: 'shares_on_issue',
    type: 'numeric',
    precision: 20,
    scale: 0,
    nullable: true,
    transformer: asNumber,
  })
  sharesOnIssue!: number | null;

  @Column({
    name: 'market_cap',
    type: 'numeric',
    precision: 22,
    scale: 2,
    nullable: true,
    transformer: asNumber,
  })
  marketCap!: number | null;

  @Column({ type: 'text' })
  source!: QuoteSource;

  @Column({ type: 'timestamptz' })
  updated!: Date;
}
