import { createOutboxTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The invoicing schema's first migration: the outbox its events leave through. Add the service's tables here. */
export class CreateInvoicing1795816586699 implements MigrationInterface {
  name = 'CreateInvoicing1795816586699';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTable(q, 'invoicing');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTable(q, 'invoicing');
  }
}
