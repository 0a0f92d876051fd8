import { createStockProjectionTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User administration (issue 21):
 * - stocks: the service's stock projection (the platform's module), for the permission rows and the
 *   user editor's company search;
 * - user_audit: one row per change of a user, written in the change's transaction. The actor is kept by id
 *   and by name (the name as it was), and the target's id has no foreign key: the trail outlives a user.
 */
export class UserAdministration1764800000000 implements MigrationInterface {
  name = 'UserAdministration1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await createStockProjectionTable(q, 'users', [
      `company_name text NOT NULL DEFAULT ''`,
      'archived boolean NOT NULL DEFAULT false',
    ]);
    await q.query(`CREATE INDEX stocks_combined_ticker_idx ON users.stocks (upper(combined_ticker))`);
    await q.query(`
      CREATE TABLE users.user_audit (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid,
        actor_username text NOT NULL,
        user_id uuid NOT NULL,
        username_before text,
        username_after text NOT NULL,
        roles_before text[] NOT NULL,
        roles_after text[] NOT NULL,
        stock_roles_before jsonb NOT NULL,
        stock_roles_after jsonb NOT NULL,
        password_changed boolean NOT NULL
      )`);
    await q.query(`CREATE INDEX user_audit_user ON users.user_audit (user_id, at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE users.user_audit`);
    await q.query(`DROP TABLE users.stocks`);
  }
}
