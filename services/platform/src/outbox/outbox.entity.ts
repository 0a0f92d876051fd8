import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An event written in the same transaction as the state change that implies it. */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished', ['id'], { where: 'published_at IS NULL' })
export class OutboxEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  topic!: string;

  @Column({ type: 'text', nullable: true })
  key!: string | null;

  @Column({ type: 'jsonb' })
  payload!: unknown;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  headers!: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
