import { Client, ClientBase } from 'pg';
import {
  bootstrapStatements,
  databaseTenants,
  DatabaseTenant,
  tenantDatabaseUrl,
  tenantGrantOf,
  tenantUrlVariable,
} from './database-roles';
import { createLogger } from './logging';
import { serviceManifest } from './manifest';

const log = createLogger('database-bootstrap');

/** A tenant and the URL it connects with (its role, and the role's password if any, are taken from it). */
export interface TenantConnection {
  schema: string;
  url: string;
}

const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** Concurrent catalogue updates of one shared row (a role) by runs on two databases: tried again. */
const RETRIED = new Set(['XX000', '40001', '40P01']);

/**
 * Makes each tenant's role and schema in the admin URL's database (bootstrapStatements), as the admin.
 * Runs one at a time per database (an advisory lock); idempotent.
 */
export async function bootstrapDatabase(
  adminUrl: string,
  tenants: readonly TenantConnection[],
): Promise<void> {
  const database = databaseOf(adminUrl);
  const elsewhere = tenants.filter((t) => databaseOf(t.url) !== database);
  if (elsewhere.length) {
    throw new Error(
      `the database URLs of ${elsewhere.map((t) => t.schema).join(', ')} name another database than ${database}`,
    );
  }
  const statements = bootstrapStatements(
    database,
    tenants.map((t) => tenantGrantOf(t.schema, t.url)),
  );
  const client = new Client({ connectionString: adminUrl, application_name: 'database-bootstrap' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['database-bootstrap']);
    for (let attempt = 1; ; attempt++) {
      try {
        await runAll(client, statements);
        break;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= 3 || !code || !RETRIED.has(code)) throw err;
      }
    }
  } finally {
    // Ending the session releases the advisory lock.
    await client.end();
  }
  // debug: the scripts that run it say so in their own words.
  log.debug({ database, schemas: tenants.map((t) => t.schema) }, 'database roles and schemas in place');
}

async function runAll(client: ClientBase, statements: readonly string[]): Promise<void> {
  await client.query('BEGIN');
  try {
    for (const sql of statements) await client.query(sql);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * A local stack's or test run's bootstrap: every tenant on the admin URL's server and database as its
 * default role (tenantDatabaseUrl, no password: the local server trusts 127.0.0.1). Returns each tenant's
 * DATABASE_URL by name.
 */
export async function bootstrapLocalDatabase(
  adminUrl: string,
  tenants: readonly DatabaseTenant[] = databaseTenants(serviceManifest()),
): Promise<Record<string, string>> {
  const urls = Object.fromEntries(tenants.map((t) => [t.name, tenantDatabaseUrl(adminUrl, t.schema)]));
  await bootstrapDatabase(
    adminUrl,
    tenants.map((t) => ({ schema: t.schema, url: urls[t.name] })),
  );
  return urls;
}

/**
 * A deployment's bootstrap (the Kubernetes `database` Job): the admin's DATABASE_ADMIN_URL, and each tenant's
 * own DATABASE_URL as DATABASE_URL_<SCHEMA> (tenantUrlVariable), the role and password it will connect with.
 */
export async function bootstrapDatabaseFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  tenants: readonly DatabaseTenant[] = databaseTenants(serviceManifest()),
): Promise<void> {
  const adminUrl = env.DATABASE_ADMIN_URL;
  const missing = [
    ...(adminUrl ? [] : ['DATABASE_ADMIN_URL']),
    ...tenants.map((t) => tenantUrlVariable(t.schema)).filter((v) => !env[v]),
  ];
  if (!adminUrl || missing.length) throw new Error(`the database bootstrap needs ${missing.join(', ')}`);
  await bootstrapDatabase(
    adminUrl,
    tenants.map((t) => ({ schema: t.schema, url: env[tenantUrlVariable(t.schema)]! })),
  );
}
