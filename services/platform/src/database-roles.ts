// Dependency-free (a type import only), so the Kubernetes generator's tests load it as it is.
import type { ServiceManifestEntry } from './manifest';

/**
 * Who owns a schema of the database (docs/adr/0011): each service of the manifest, and the gateway (its
 * shared rate-limit counters). Each connects as its own login role, which owns its schema and nothing else.
 */
export interface DatabaseTenant {
  name: string;
  schema: string;
}

/** The gateway's schema: the counters every gateway instance shares (gateway/src/limits). */
export const GATEWAY_TENANT: DatabaseTenant = { name: 'gateway', schema: 'gateway' };

/** Every tenant of the database: the manifest's services, then the gateway. */
export function databaseTenants(
  services: readonly Pick<ServiceManifestEntry, 'name' | 'schema'>[],
): DatabaseTenant[] {
  return [...services.map(({ name, schema }) => ({ name, schema })), GATEWAY_TENANT];
}

/** A tenant's login role by default (cluster-wide, so prefixed: `irp_email_marketing`). */
export const tenantRoleOf = (schema: string): string => `irp_${schema}`;

/**
 * The variable a bootstrap run reads a tenant's connection URL from (`DATABASE_URL_EMAIL_MARKETING`): the
 * Kubernetes Job maps each service's own Secret key DATABASE_URL onto it, so the role's name and password
 * are written once, where the service reads them.
 */
export const tenantUrlVariable = (schema: string): string => `DATABASE_URL_${schema.toUpperCase()}`;

/**
 * The admin URL with a tenant's role as its user (and `password`, when the server asks for one): what a local
 * stack or test run gives each process as its DATABASE_URL. The server of `make up` and the tests trusts
 * 127.0.0.1, so no password is needed there.
 */
export function tenantDatabaseUrl(adminUrl: string, schema: string, password?: string): string {
  const url = new URL(adminUrl);
  url.username = encodeURIComponent(tenantRoleOf(schema));
  url.password = password ? encodeURIComponent(password) : '';
  return url.toString();
}

/** One tenant as the bootstrap makes it: its schema, the role that owns it, and the role's password. */
export interface TenantGrant {
  schema: string;
  role: string;
  /** Set on the role when given; left as it is otherwise (a trusting local server needs none). */
  password?: string;
}

/** A tenant's role and password, from the URL it connects with. */
export function tenantGrantOf(schema: string, url: string): TenantGrant {
  const parsed = new URL(url);
  const role = decodeURIComponent(parsed.username);
  if (!role) throw new Error(`the database URL of schema ${schema} names no user`);
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  return { schema, role, password };
}

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A checked identifier, quoted: names come from the manifest and Secrets, never from a request. */
function ident(name: string): string {
  if (!NAME.test(name)) throw new Error(`"${name}" is not a lower-case PostgreSQL identifier`);
  return `"${name}"`;
}

/** A string literal (standard_conforming_strings, on since PostgreSQL 9.1: only quotes are doubled). */
const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/**
 * The SQL that gives each tenant its role and schema in `database`, run by an admin (a superuser, or a role
 * with CREATEROLE that owns the database). Idempotent, and safe beside another database of the same cluster
 * bootstrapped at the same time: roles are cluster-wide, so a role made concurrently is taken as made, and a
 * role's password changes only when one is given.
 *
 *   - PUBLIC may not create in the database or in `public`, nor connect: each tenant's role gets CONNECT.
 *   - Each schema is owned by its tenant's role (made so, with everything in it, when an earlier version
 *     made it as the admin), and nothing is granted on it to anyone else.
 */
export function bootstrapStatements(database: string, tenants: readonly TenantGrant[]): string[] {
  const db = ident(database);
  const statements = [
    `REVOKE ALL ON DATABASE ${db} FROM PUBLIC`,
    'REVOKE CREATE ON SCHEMA public FROM PUBLIC',
  ];
  for (const { schema, role, password } of tenants) {
    const r = ident(role);
    const s = ident(schema);
    statements.push(
      // CREATE ROLE has no IF NOT EXISTS; a role made meanwhile by another run raises one of these two.
      // Its attributes are CREATE ROLE's defaults (no superuser, createdb, createrole, replication or
      // bypassrls); only a superuser could restate them, and the admin of a managed server is none.
      `DO $$ BEGIN CREATE ROLE ${r} LOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
      `ALTER ROLE ${r} LOGIN${password === undefined ? '' : ` PASSWORD ${literal(password)}`}`,
      `GRANT CONNECT ON DATABASE ${db} TO ${r}`,
      `CREATE SCHEMA IF NOT EXISTS ${s} AUTHORIZATION ${r}`,
      `ALTER SCHEMA ${s} OWNER TO ${r}`,
      `REVOKE ALL ON SCHEMA ${s} FROM PUBLIC`,
      ownEverythingIn(schema, role),
    );
  }
  return statements;
}

/**
 * Hands every table, view and free-standing sequence of the schema not yet the role's to it (a sequence
 * of a serial or identity column follows its table), so the role's migrations may alter what the admin
 * made before roles existed. Indexes follow their tables.
 */
function ownEverythingIn(schema: string, role: string): string {
  // Checked names: quoted as literals inside the dollar-quoted block, they cannot end it.
  const s = literal(ident(schema).slice(1, -1));
  const r = literal(ident(role).slice(1, -1));
  return `DO $$ DECLARE o record; BEGIN
  FOR o IN
    SELECT c.relname, CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
             WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ${s} AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = ${r})
       AND NOT (c.relkind = 'S' AND EXISTS (
             SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                AND d.deptype IN ('a', 'i')))
  LOOP
    EXECUTE format('ALTER %s %I.%I OWNER TO %I', o.kind, ${s}, o.relname, ${r});
  END LOOP;
END $$`;
}
