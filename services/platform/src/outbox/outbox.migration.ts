import { QueryRunner } from 'typeorm';

/** The outbox table, created by each service's first migration in its own schema. */
export async function createOutboxTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`
    CREATE TABLE "${schema}".outbox (
      id bigserial PRIMARY KEY,
      topic text NOT NULL,
      key text,
      payload jsonb NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    )`);
  await queryRunner.query(
    `CREATE INDEX outbox_unpublished ON "${schema}".outbox (id) WHERE published_at IS NULL`,
  );
}

export async function dropOutboxTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP TABLE "${schema}".outbox`);
}
