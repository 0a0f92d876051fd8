import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * referers.count becomes bigint, like api_hits.count: a page of a busy client site is counted on every
 * view, and an int would overflow into a failed widget lookup.
 */
export class RefererCountBigint1764100000000 implements MigrationInterface {
  name = 'RefererCountBigint1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE stocks.referers ALTER COLUMN count TYPE bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE stocks.referers ALTER COLUMN count TYPE int`);
  }
}
