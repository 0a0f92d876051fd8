import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A password someone else set is one-time (issue 34): the user must choose a new one at the next sign-in.
 * Users existing before keep theirs as it is.
 */
export class OneTimePasswords1796800000000 implements MigrationInterface {
  name = 'OneTimePasswords1796800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users.users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users.users DROP COLUMN must_change_password`);
  }
}
