import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The handle of one open transaction. Use cases receive it from `UnitOfWork.run` and only pass it on to
 * repositories and `Outbox.add`; they never query through it (docs/architecture.md, "One way to the
 * database"; the lint rule `database/sql-only-in-repositories`).
 */
export type Tx = EntityManager;

/**
 * Runs a use case's writes in one Postgres transaction: the repositories it calls and the outbox events
 * it adds commit together or not at all. The only way a use case opens a transaction.
 */
@Injectable()
export class UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
