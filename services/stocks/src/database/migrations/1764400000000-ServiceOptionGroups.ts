import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Option groups staff manage (docs/api/stocks.md, "Option groups"): a group has a name, is the default
 * (what /new-order shows; one at most) or not, and may be archived (its /new-order/{id} then says it is no
 * longer offered). Options belong to a group. Schema only: the demo's group is demo data, created by the
 * stocks seed (src/seed.ts, `make up`; refused in production), never by a migration.
 *
 * A database migrated before this kept the two options 1764300000000 used to insert into group 'default'
 * (one of them invented): those rows are removed here when unchanged, and any other option rows get a group
 * of their own name so nothing is orphaned. Orders placed with a removed option keep their copy of it.
 */
export class ServiceOptionGroups1764400000000 implements MigrationInterface {
  name = 'ServiceOptionGroups1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE stocks.service_option_groups (
        id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
        name text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT service_option_groups_default_not_archived CHECK (NOT (is_default AND archived_at IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX service_option_groups_one_default ON stocks.service_option_groups ((true)) WHERE is_default`,
    );
    await q.query(
      `CREATE UNIQUE INDEX service_option_groups_active_name ON stocks.service_option_groups (lower(name)) WHERE archived_at IS NULL`,
    );
    // The rows the old migration seeded, while unchanged (no route could change them).
    await q.query(
      `DELETE FROM stocks.service_options
       WHERE group_id = 'default'
         AND ((position = 1 AND name = 'Standard' AND price_cents = 180000)
           OR (position = 2 AND name = 'Standard with email marketing' AND price_cents = 240000))`,
    );
    await q.query(
      `INSERT INTO stocks.service_option_groups (id, name, is_default)
       SELECT g, g, g = 'default' FROM (SELECT DISTINCT group_id AS g FROM stocks.service_options) AS groups`,
    );
    await q.query(
      `ALTER TABLE stocks.service_options
         ADD CONSTRAINT service_options_group FOREIGN KEY (group_id)
         REFERENCES stocks.service_option_groups (id) ON DELETE CASCADE`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE stocks.service_options DROP CONSTRAINT service_options_group`);
    await q.query(`DROP TABLE stocks.service_option_groups`);
  }
}
