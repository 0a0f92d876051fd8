import { createOutboxTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The reports schema's first migration: the outbox its events leave through. Add the service's tables here. */
export class CreateReports1795830322350 implements MigrationInterface {
  name = 'CreateReports1795830322350';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTable(q, 'reports');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTable(q, 'reports');
  }
}
