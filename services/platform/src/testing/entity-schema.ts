import { DataSource } from 'typeorm';
import { openDatabase, withOutbox } from '../database';
import { DefinedService } from '../define-service';
import { ServiceConfigBase } from '../config';
import { serviceTestEnv } from './harness';

/**
 * The planned statements that change a row's shape (a table, a column's name, type, nullability or default).
 * Indexes, checks, unique and foreign-key constraints are the migrations' alone: TypeORM would drop those an
 * entity does not repeat, and no row type depends on them.
 */
const ROW_SHAPE = /^(CREATE TABLE|DROP TABLE|ALTER TABLE \S+ (ADD|DROP|ALTER|RENAME) COLUMN)/;

/**
 * What TypeORM would change to make the service's migrated schema match its entities (docs/adr/0012): the
 * statements its schema builder plans after every committed migration has run, as SQL, where they change a row's
 * shape (ROW_SHAPE), and each table without an entity. Empty when every table has an entity and each entity
 * says what the migrations made: the row types derived from the entities are
 * then the database's own. `env` adds what the service's config needs beyond the test environment.
 */
export async function entitySchemaDifferences<C extends ServiceConfigBase>(
  service: DefinedService<C>,
  env: NodeJS.ProcessEnv = {},
): Promise<string[]> {
  const config = service.loadConfig({ ...serviceTestEnv(service.name), ...env });
  const { entities, migrations } = service.database(config);
  let ds: DataSource | undefined;
  try {
    ds = await openDatabase({
      url: config.DATABASE_URL,
      schema: service.manifest.schema,
      entities: withOutbox(entities),
      migrations,
      poolSize: 2,
    });
    const planned = await ds.driver.createSchemaBuilder().log();
    const tables = await ds.query<Array<{ name: string }>>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'migrations' ORDER BY 1`,
      [service.manifest.schema],
    );
    const mapped = new Set(ds.entityMetadatas.map((m) => m.tableName));
    return [
      ...tables.filter((t) => !mapped.has(t.name)).map((t) => `table ${t.name} has no entity`),
      ...planned.upQueries.map((q) => q.query).filter((sql) => ROW_SHAPE.test(sql)),
    ];
  } finally {
    await ds?.destroy();
  }
}
