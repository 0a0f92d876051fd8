import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A passkey as stored: its credential's public key, never a secret. */
export interface StoredPasskey {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A ticket between a right password and its second factor. */
export interface SignInTicket {
  userId: string;
  challenge: string | null;
  failures: number;
}

const PASSKEY_COLUMNS = `id, user_id AS "userId", credential_id AS "credentialId", public_key AS "publicKey",
  counter::float8 AS counter, transports, name, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

/**
 * Passkeys, the authenticator app's sealed secret, recovery codes (hashes), sign-in tickets (hashes) and
 * the challenge of a passkey being added: the only place that queries their tables. `users.has_second_factor`
 * follows what a user has, so a session check needs no second query.
 */
@Injectable()
export class SecondFactorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private q(tx?: EntityManager) {
    return tx ?? this.dataSource.manager;
  }

  /** Runs an UPDATE or DELETE (TypeORM answers `[rows, count]` for those): did it change exactly one row? */
  private async changedOne(runner: EntityManager, sql: string, params: unknown[]): Promise<boolean> {
    const [, affected] = (await runner.query(sql, params)) as [unknown, number];
    return affected === 1;
  }

  passkeysOf(userId: string, tx?: Tx): Promise<StoredPasskey[]> {
    return this.q(tx).query(
      `SELECT ${PASSKEY_COLUMNS} FROM users.passkeys WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  }

  async passkeyByCredential(credentialId: string): Promise<StoredPasskey | undefined> {
    const rows: StoredPasskey[] = await this.q().query(
      `SELECT ${PASSKEY_COLUMNS} FROM users.passkeys WHERE credential_id = $1`,
      [credentialId],
    );
    return rows[0];
  }

  async addPasskey(tx: Tx, p: Omit<StoredPasskey, 'id' | 'createdAt' | 'lastUsedAt'>): Promise<void> {
    await tx.query(
      `INSERT INTO users.passkeys (user_id, credential_id, public_key, counter, transports, name)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [p.userId, p.credentialId, p.publicKey, p.counter, p.transports, p.name],
    );
  }

  /** The counter an assertion reported, and when; refused (false) when another assertion got there first. */
  async usePasskey(id: string, before: number, counter: number): Promise<boolean> {
    return this.changedOne(
      this.q(),
      `UPDATE users.passkeys SET counter = $3, last_used_at = now() WHERE id = $1 AND counter = $2`,
      [id, before, counter],
    );
  }

  async removePasskey(tx: Tx, userId: string, id: string): Promise<boolean> {
    return this.changedOne(tx, `DELETE FROM users.passkeys WHERE id = $1 AND user_id = $2`, [id, userId]);
  }

  async totpOf(
    userId: string,
    tx?: Tx,
  ): Promise<{ sealedSecret: string; confirmed: boolean; lastStep: number } | undefined> {
    const rows: Array<{ sealedSecret: string; confirmed: boolean; lastStep: number }> = await this.q(
      tx,
    ).query(
      `SELECT sealed_secret AS "sealedSecret", confirmed_at IS NOT NULL AS confirmed, last_step::float8 AS "lastStep"
       FROM users.totp WHERE user_id = $1`,
      [userId],
    );
    return rows[0];
  }

  /** A new secret, not in use until confirmed (a confirmed one stays until then). */
  async beginTotp(userId: string, sealedSecret: string): Promise<void> {
    await this.q().query(
      `INSERT INTO users.totp (user_id, sealed_secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET sealed_secret = $2, confirmed_at = NULL, last_step = 0`,
      [userId, sealedSecret],
    );
  }

  /** Takes a code's time step: refused (false) when it or a later one was used already (no replay). */
  async useTotpStep(userId: string, step: number, tx?: Tx): Promise<boolean> {
    return this.changedOne(
      this.q(tx),
      `UPDATE users.totp SET last_step = $2 WHERE user_id = $1 AND last_step < $2`,
      [userId, step],
    );
  }

  async confirmTotp(tx: Tx, userId: string): Promise<void> {
    await tx.query(`UPDATE users.totp SET confirmed_at = now() WHERE user_id = $1`, [userId]);
  }

  async removeTotp(tx: Tx, userId: string): Promise<boolean> {
    return this.changedOne(tx, `DELETE FROM users.totp WHERE user_id = $1`, [userId]);
  }

  async recoveryCodesLeft(userId: string, tx?: Tx): Promise<number> {
    const [row] = (await this.q(tx).query(
      `SELECT count(*)::int AS n FROM users.recovery_codes WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    )) as Array<{ n: number }>;
    return row.n;
  }

  async replaceRecoveryCodes(tx: Tx, userId: string, hashes: string[]): Promise<void> {
    await tx.query(`DELETE FROM users.recovery_codes WHERE user_id = $1`, [userId]);
    await tx.query(`INSERT INTO users.recovery_codes (code_hash, user_id) SELECT unnest($2::text[]), $1`, [
      userId,
      hashes,
    ]);
  }

  /** Uses a recovery code once; was it one of the user's unused ones? */
  async useRecoveryCode(userId: string, hash: string): Promise<boolean> {
    return this.changedOne(
      this.q(),
      `UPDATE users.recovery_codes SET used_at = now() WHERE code_hash = $1 AND user_id = $2 AND used_at IS NULL`,
      [hash, userId],
    );
  }

  /** Whether the user has a passkey or a confirmed authenticator app; kept on users.has_second_factor. */
  async refreshHasSecondFactor(tx: Tx, userId: string): Promise<boolean> {
    const [row] = (await tx.query(
      `UPDATE users.users SET has_second_factor =
         EXISTS (SELECT 1 FROM users.passkeys WHERE user_id = $1)
         OR EXISTS (SELECT 1 FROM users.totp WHERE user_id = $1 AND confirmed_at IS NOT NULL)
       WHERE id = $1 RETURNING has_second_factor AS has`,
      [userId],
    )) as [Array<{ has: boolean }>, number];
    const has = row[0]?.has ?? false;
    if (!has) await tx.query(`DELETE FROM users.recovery_codes WHERE user_id = $1`, [userId]);
    return has;
  }

  async openTicket(ticketHash: string, userId: string, seconds: number): Promise<void> {
    await this.q().query(`DELETE FROM users.sign_in_tickets WHERE expires_at < now()`);
    await this.q().query(
      `INSERT INTO users.sign_in_tickets (ticket_hash, user_id, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [ticketHash, userId, seconds],
    );
  }

  async ticket(ticketHash: string): Promise<SignInTicket | undefined> {
    const rows: SignInTicket[] = await this.q().query(
      `SELECT user_id AS "userId", challenge, failures FROM users.sign_in_tickets
       WHERE ticket_hash = $1 AND expires_at > now()`,
      [ticketHash],
    );
    return rows[0];
  }

  async setTicketChallenge(ticketHash: string, challenge: string): Promise<void> {
    await this.q().query(`UPDATE users.sign_in_tickets SET challenge = $2 WHERE ticket_hash = $1`, [
      ticketHash,
      challenge,
    ]);
  }

  /** Counts a wrong second factor; the ticket ends at `max` of them. */
  async ticketFailed(ticketHash: string, max: number): Promise<void> {
    await this.q().query(
      `UPDATE users.sign_in_tickets SET failures = failures + 1, challenge = NULL WHERE ticket_hash = $1`,
      [ticketHash],
    );
    await this.q().query(`DELETE FROM users.sign_in_tickets WHERE ticket_hash = $1 AND failures >= $2`, [
      ticketHash,
      max,
    ]);
  }

  /** Ends a ticket (used); was it still there (a ticket is good once)? */
  async closeTicket(ticketHash: string): Promise<boolean> {
    return this.changedOne(this.q(), `DELETE FROM users.sign_in_tickets WHERE ticket_hash = $1`, [
      ticketHash,
    ]);
  }

  async setPasskeyChallenge(userId: string, challenge: string, seconds: number): Promise<void> {
    await this.q().query(
      `INSERT INTO users.passkey_challenges (user_id, challenge, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (user_id) DO UPDATE SET challenge = $2, expires_at = now() + make_interval(secs => $3)`,
      [userId, challenge, seconds],
    );
  }

  /** The live challenge of a passkey being added, taken (good once). */
  async takePasskeyChallenge(userId: string): Promise<string | undefined> {
    // A DELETE answers [rows, count].
    const [rows] = (await this.q().query(
      `DELETE FROM users.passkey_challenges WHERE user_id = $1 RETURNING challenge, expires_at > now() AS live`,
      [userId],
    )) as [Array<{ challenge: string; live: boolean }>, number];
    const row = rows[0];
    return row?.live ? row.challenge : undefined;
  }
}
