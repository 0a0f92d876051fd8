import type { SuppressionReason } from '@irp/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An address mailed no more for any stock (issue 36): lower-cased, with why and since when. */
@Entity({ name: 'suppressions' })
export class SuppressionEntity {
  @PrimaryColumn({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  reason!: SuppressionReason;

  @Column({ type: 'text', default: '' })
  detail!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  since!: Date;
}
