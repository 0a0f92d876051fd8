import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A claim records its owner (issue 30): each sender process takes an owner number from `sender_owners` and
 * holds a session-level advisory lock on it for its life (sending/claim-owner.ts); every delivery it claims
 * carries the number in `claimed_owner`. A claim whose owner's lock is free (the process died and PostgreSQL
 * ended its session) is taken over at once, and a living owner's claims are never taken, however slow it is.
 * Claims made before (no owner) keep their lease.
 */
export class ClaimOwners1796300000000 implements MigrationInterface {
  name = 'ClaimOwners1796300000000';

  async up(q: QueryRunner): Promise<void> {
    // integer: the second key of pg_advisory_lock(int, int). Two billion process starts before it cycles, and
    // a dead owner's claims are taken over within seconds, so no claim of an earlier holder of a number is left.
    await q.query(`CREATE SEQUENCE email_marketing.sender_owners AS integer CYCLE`);
    await q.query(`ALTER TABLE email_marketing.deliveries ADD COLUMN claimed_owner integer`);
  }

  /** Back to leases alone: claims in flight fall back to their lease (set on every claim). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.deliveries DROP COLUMN claimed_owner`);
    await q.query(`DROP SEQUENCE email_marketing.sender_owners`);
  }
}
