import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One sign-in. The session token and the refresh token are stored only as SHA-256 hashes. A refresh
 * rotates both; presenting the previous refresh token again means it leaked, so the session is revoked.
 */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'refresh_hash', type: 'text' })
  refreshHash!: string;

  @Column({ name: 'previous_refresh_hash', type: 'text', nullable: true })
  previousRefreshHash!: string | null;

  @Column({ name: 'refresh_expires_at', type: 'timestamptz' })
  refreshExpiresAt!: Date;

  /** The session's absolute end (SESSION_MAX_AGE_SECONDS after sign-in): no refresh moves it. */
  @Column({ name: 'absolute_expires_at', type: 'timestamptz' })
  absoluteExpiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent!: string | null;

  @Column({ type: 'text', nullable: true })
  ip!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt!: Date;
}
