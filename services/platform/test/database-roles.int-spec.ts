import { Client } from 'pg';
import { bootstrapLocalDatabase, tenantRoleOf } from '@irp/platform';
import { loadTestEnv, ServiceProcess, startServiceProcess, testDatabaseUrl } from '@irp/platform/testing';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/**
 * docs/adr/0011: each service connects as its own role, which may use its own schema and nothing else.
 * The test database was bootstrapped by scripts/test.mjs; the bootstrap runs again here (it is idempotent,
 * and this file may run alone against a database made by hand).
 */
describe('a database role per service', () => {
  const PROBE = 'role_probe';
  let admin: Client;
  let users: Client;
  let usersService: ServiceProcess | undefined;

  const connect = async (url: string) => {
    const client = new Client({ connectionString: url, application_name: 'test-database-roles' });
    await client.connect();
    return client;
  };

  beforeAll(async () => {
    const { DATABASE_URL } = loadTestEnv();
    await bootstrapLocalDatabase(DATABASE_URL);
    await bootstrapLocalDatabase(DATABASE_URL); // twice: a second run changes nothing and fails nothing
    admin = await connect(DATABASE_URL);
    users = await connect(testDatabaseUrl('users'));
  });

  afterAll(async () => {
    await usersService?.stop();
    await users?.query(`DROP TABLE IF EXISTS users.${PROBE}`).catch(() => undefined);
    await users?.end();
    await admin?.end();
  });

  it("connects as the service's role, which is no superuser and owns its schema", async () => {
    const { rows } = await users.query<{ me: string; superuser: boolean; owner: string }>(
      `SELECT current_user AS me, r.rolsuper AS superuser, pg_get_userbyid(n.nspowner) AS owner
         FROM pg_roles r, pg_namespace n WHERE r.rolname = current_user AND n.nspname = 'users'`,
    );
    expect(rows).toEqual([{ me: 'irp_users', superuser: false, owner: 'irp_users' }]);
  });

  it('creates, writes and reads in its own schema', async () => {
    await users.query(`CREATE TABLE users.${PROBE} (id int PRIMARY KEY, note text)`);
    await users.query(`INSERT INTO users.${PROBE} VALUES (1, 'mine')`);
    const { rows } = await users.query(`SELECT note FROM users.${PROBE}`);
    expect(rows).toEqual([{ note: 'mine' }]);
  });

  it("is refused on another service's schema: reading, writing and creating", async () => {
    // The tables need not exist: the schema's USAGE is checked before a name in it is looked up.
    await expect(users.query('SELECT * FROM stocks.stocks')).rejects.toThrow(
      'permission denied for schema stocks',
    );
    await expect(
      users.query(`INSERT INTO email_marketing.subscribers (email) VALUES ('x@y.z')`),
    ).rejects.toThrow('permission denied for schema email_marketing');
    await expect(users.query(`CREATE TABLE gateway.${PROBE} (id int)`)).rejects.toThrow(
      'permission denied for schema gateway',
    );
  });

  it('is refused a schema of its own making, and the public schema', async () => {
    await expect(users.query('CREATE SCHEMA role_probe_elsewhere')).rejects.toThrow(
      /permission denied for database/,
    );
    await expect(users.query(`CREATE TABLE public.${PROBE} (id int)`)).rejects.toThrow(
      'permission denied for schema public',
    );
  });

  it('another service is refused on this one', async () => {
    const stocks = await connect(testDatabaseUrl('stocks'));
    try {
      await expect(stocks.query(`SELECT * FROM users.${PROBE}`)).rejects.toThrow(
        'permission denied for schema users',
      );
    } finally {
      await stocks.end();
    }
  });

  it('a service runs on its role: its connections are the role’s, its migrated tables the role’s', async () => {
    usersService = await startServiceProcess('users');
    const { rows: sessions } = await admin.query<{ usename: string }>(
      `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'users'`,
    );
    expect(sessions).toEqual([{ usename: tenantRoleOf('users') }]);
    const { rows: owners } = await admin.query<{ owner: string }>(
      `SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'users'`,
    );
    expect(owners).toEqual([{ owner: 'irp_users' }]);
  });
});
