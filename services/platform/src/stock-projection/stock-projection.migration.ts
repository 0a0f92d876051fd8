import { QueryRunner } from 'typeorm';

/**
 * A service's stock projection table, `<schema>.stocks`, created by its first migration: the columns every
 * projection keeps (StockProjectionColumns: id, ticker, exchange, combined_ticker, updated_at) followed by
 * the service's own (`ownColumns`, each as `name type constraints`). Indexes stay the service's: each looks
 * a stock up its own way. One statement for every service, so the shared columns are written once, beside
 * the entity columns they match.
 */
export async function createStockProjectionTable(
  queryRunner: QueryRunner,
  schema: string,
  ownColumns: readonly string[],
): Promise<void> {
  const columns = [
    'id uuid PRIMARY KEY',
    'ticker text NOT NULL',
    'exchange text NOT NULL',
    'combined_ticker text NOT NULL',
    'updated_at timestamptz NOT NULL',
    ...ownColumns,
  ];
  await queryRunner.query(`CREATE TABLE "${schema}".stocks (\n  ${columns.join(',\n  ')}\n)`);
}
