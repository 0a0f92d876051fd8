import { Client, Pool, PoolClient } from 'pg';
import { DataSource, MixedList, EntitySchema } from 'typeorm';
import { createLogger } from './logging';

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
    extra: { max: o.poolSize ?? 10, application_name: o.schema },
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
 * Creates the service schema if needed, connects, and runs the committed migrations. An advisory lock
 * keeps two instances starting together from migrating at once.
 */
export async function openDatabase(o: DatabaseOptions): Promise<DataSource> {
  const admin = new Client({ connectionString: o.url });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext($1))`, [`migrate:${o.schema}`]);
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${o.schema}"`);
      const ds = createDataSource(o);
      await ds.initialize();
      hearLostConnections(ds);
      const ran = await ds.runMigrations({ transaction: 'each' });
      if (ran.length)
        log.info({ schema: o.schema, migrations: ran.map((m) => m.name) }, 'migrations applied');
      return ds;
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`migrate:${o.schema}`]);
    }
  } finally {
    await admin.end();
  }
}
