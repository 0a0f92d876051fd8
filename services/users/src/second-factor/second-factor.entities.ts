import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The second factors' tables as TypeORM sees them (migration 1797000000000-SecondFactors): columns only, the
 * foreign keys, unique constraints and indexes are the migration's. SecondFactorsRepository queries them.
 */

@Entity({ name: 'passkeys' })
export class PasskeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'credential_id', type: 'text' })
  credentialId!: string;

  @Column({ name: 'public_key', type: 'bytea' })
  publicKey!: Buffer;

  @Column({ type: 'bigint', default: 0 })
  counter!: string;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  transports!: string[];

  @Column({ type: 'text' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}

/** The authenticator app's secret, sealed for this service (never in clear), and the last step used. */
@Entity({ name: 'totp' })
export class TotpEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'sealed_secret', type: 'text' })
  sealedSecret!: string;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt!: Date | null;

  @Column({ name: 'last_step', type: 'bigint', default: 0 })
  lastStep!: string;
}

@Entity({ name: 'recovery_codes' })
export class RecoveryCodeEntity {
  /** SHA-256 of the code's typed form. */
  @PrimaryColumn({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}

@Entity({ name: 'sign_in_tickets' })
export class SignInTicketEntity {
  /** SHA-256 of the gateway's ticket cookie. */
  @PrimaryColumn({ name: 'ticket_hash', type: 'text' })
  ticketHash!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  challenge!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'int', default: 0 })
  failures!: number;
}

@Entity({ name: 'passkey_challenges' })
export class PasskeyChallengeEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  challenge!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

export const SECOND_FACTOR_ENTITIES = [
  PasskeyEntity,
  TotpEntity,
  RecoveryCodeEntity,
  SignInTicketEntity,
  PasskeyChallengeEntity,
];
