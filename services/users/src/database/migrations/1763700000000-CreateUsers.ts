import { createOutboxTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsers1763700000000 implements MigrationInterface {
  name = 'CreateUsers1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users.users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username text NOT NULL CHECK (length(btrim(username)) > 0),
        password_hash text NOT NULL,
        roles text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_username_unique ON users.users (lower(username))`);
    await q.query(`
      CREATE TABLE users.user_stock_roles (
        user_id uuid NOT NULL REFERENCES users.users(id) ON DELETE CASCADE,
        stock_id uuid NOT NULL,
        roles text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (user_id, stock_id)
      )`);
    await q.query(`CREATE INDEX user_stock_roles_stock ON users.user_stock_roles (stock_id)`);
    await q.query(`
      CREATE TABLE users.sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users.users(id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        refresh_hash text NOT NULL,
        previous_refresh_hash text,
        refresh_expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        user_agent text,
        ip text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX sessions_token_hash ON users.sessions (token_hash)`);
    await q.query(`CREATE UNIQUE INDEX sessions_refresh_hash ON users.sessions (refresh_hash)`);
    await q.query(`CREATE INDEX sessions_previous_refresh_hash ON users.sessions (previous_refresh_hash)`);
    await q.query(`CREATE INDEX sessions_user ON users.sessions (user_id)`);
    await createOutboxTable(q, 'users');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTable(q, 'users');
    await q.query(`DROP TABLE users.sessions`);
    await q.query(`DROP TABLE users.user_stock_roles`);
    await q.query(`DROP TABLE users.users`);
  }
}
