import { Client, ClientBase, Pool, PoolClient } from 'pg';
import { DataSource, MixedList, EntitySchema } from 'typeorm';
import { createLogger } from './logging';
import { OutboxEntity } from './outbox/outbox.entity';

const log = createLogger('database');

export interface DatabaseOptions {
  url: string;
  /** The service's own schema; a service never reads another's. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  /** How long an idle pooled connection is kept (DATABASE_POOL_IDLE_MS); pg's 10 s when unset. */
  poolIdleMs?: number;
}

/** A service's entities with the platform's outbox, which every service's schema has. */
export function withOutbox(entities: DatabaseOptions['entities']): DatabaseOptions['entities'] {
  return [OutboxEntity, ...(Array.isArray(entities) ? entities : Object.values(entities))];
}

export function createDataSource(o: DatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: o.url,
    schema: o.schema,
    entities: o.entities,
    migrations: o.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // Migrations use core functions only (gen_random_uuid); a service's role may not create extensions.
    installExtensions: false,
    // gen_random_uuid() (core since PostgreSQL 13) for a generated uuid column, as the migrations write it.
    uuidExtension: 'pgcrypto',
    extra: {
      max: o.poolSize ?? 10,
      idleTimeoutMillis: o.poolIdleMs ?? 10_000,
      application_name: o.schema,
    },
  });
}

const HEARD = Symbol('irp.lostConnectionHeard');

/**
 * pg emits 'error' on a client checked out of the pool (in a transaction, between its queries) whose
 * connection is cut (a Postgres restart, `pg_terminate_backend`); with no listener, that error would end the
 * process. Heard here, it is logged; the client's next query fails, which the handler retry policy treats as
 * transient, and the pool drops the broken client when it is released.
 */
function hearLostConnections(ds: DataSource): void {
  const pool = (ds.driver as unknown as { master?: Pool }).master;
  pool?.on('acquire', (client: PoolClient & { [HEARD]?: boolean }) => {
    if (client[HEARD]) return;
    client[HEARD] = true;
    client.on('error', (err) => log.warn({ err: err.message }, 'database connection lost while in use'));
  });
}

/**
 * Creates `schema` when it does not exist yet, which only an admin connection may do: a service connects
 * as its own role, whose schema the database bootstrap made (docs/adr/0011), and the role has no right to
 * create one (CREATE SCHEMA IF NOT EXISTS checks that right even when the schema exists).
 */
export async function ensureSchema(client: ClientBase, schema: string): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (rowCount) return;
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (err) {
    const user = (client as unknown as { user?: string }).user;
    throw new Error(
      `schema ${schema} does not exist and ${user ?? 'this user'} may not create it (${(err as Error).message}): ` +
        'run the database bootstrap first (node deploy/local/infra.mjs database; make up and the tests run it)',
    );
  }
}

/**
 * Creates the service schema if needed (ensureSchema), connects, and runs the committed migrations. An
 * advisory lock keeps two instances starting together from migrating at once.
 */
export async function openDatabase(o: DatabaseOptions): Promise<DataSource> {
  const migrator = new Client({ connectionString: o.url });
  await migrator.connect();
  try {
    await migrator.query(`SELECT pg_advisory_lock(hashtext($1))`, [`migrate:${o.schema}`]);
    try {
      await ensureSchema(migrator, o.schema);
      const ds = createDataSource(o);
      await ds.initialize();
      hearLostConnections(ds);
      const ran = await ds.runMigrations({ transaction: 'each' });
      if (ran.length)
        log.info({ schema: o.schema, migrations: ran.map((m) => m.name) }, 'migrations applied');
      return ds;
    } finally {
      await migrator.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`migrate:${o.schema}`]);
    }
  } finally {
    await migrator.end();
  }
}
