import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A source's current failure streak, so its error email goes once per streak, not once per poll. */
@Entity({ name: 'source_health' })
export class SourceHealthEntity {
  @PrimaryColumn({ type: 'text' })
  source!: string;

  @Column({ name: 'failure_streak', type: 'int', default: 0 })
  failureStreak!: number;

  @Column({ name: 'first_failure_at', type: 'timestamptz', nullable: true })
  firstFailureAt!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /** Set when this streak's error email was requested; cleared by the next success. */
  @Column({ name: 'reported_at', type: 'timestamptz', nullable: true })
  reportedAt!: Date | null;

  @Column({ name: 'last_success_at', type: 'timestamptz', nullable: true })
  lastSuccessAt!: Date | null;
}
