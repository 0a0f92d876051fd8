import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One subscribe request, counted for the rate limits per address and per IP. */
@Entity({ name: 'subscribe_attempts' })
export class SubscribeAttemptEntity {
  /** bigserial: a bigint, which pg reads as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** Lower-cased, so one address in any case counts once. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  ip!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;
}
