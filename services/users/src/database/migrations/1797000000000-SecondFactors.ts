import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Second factors of sign-in (issue 34): passkeys (WebAuthn credentials: public keys only), the authenticator
 * app's TOTP secret (sealed for this service, never stored in clear), recovery codes (SHA-256 only) and the
 * tickets between a right password and its second factor (the hash of the gateway's cookie, short-lived).
 */
export class SecondFactors1797000000000 implements MigrationInterface {
  name = 'SecondFactors1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users.passkeys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users.users(id) ON DELETE CASCADE,
      credential_id text NOT NULL UNIQUE,
      public_key bytea NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      transports text[] NOT NULL DEFAULT '{}',
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz)`);
    await q.query(`CREATE INDEX passkeys_user ON users.passkeys (user_id)`);
    await q.query(`CREATE TABLE users.totp (
      user_id uuid PRIMARY KEY REFERENCES users.users(id) ON DELETE CASCADE,
      sealed_secret text NOT NULL,
      confirmed_at timestamptz,
      last_step bigint NOT NULL DEFAULT 0)`);
    await q.query(`CREATE TABLE users.recovery_codes (
      code_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users.users(id) ON DELETE CASCADE,
      used_at timestamptz)`);
    await q.query(`CREATE INDEX recovery_codes_user ON users.recovery_codes (user_id)`);
    await q.query(`CREATE TABLE users.sign_in_tickets (
      ticket_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users.users(id) ON DELETE CASCADE,
      challenge text,
      expires_at timestamptz NOT NULL,
      failures int NOT NULL DEFAULT 0)`);
    await q.query(`CREATE TABLE users.passkey_challenges (
      user_id uuid PRIMARY KEY REFERENCES users.users(id) ON DELETE CASCADE,
      challenge text NOT NULL,
      expires_at timestamptz NOT NULL)`);
    await q.query(`ALTER TABLE users.users ADD COLUMN has_second_factor boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users.users DROP COLUMN has_second_factor`);
    for (const t of ['passkey_challenges', 'sign_in_tickets', 'recovery_codes', 'totp', 'passkeys'])
      await q.query(`DROP TABLE users.${t}`);
  }
}
