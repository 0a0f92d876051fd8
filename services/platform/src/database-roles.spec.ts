import {
  bootstrapStatements,
  databaseTenants,
  tenantDatabaseUrl,
  tenantGrantOf,
  tenantRoleOf,
  tenantUrlVariable,
} from './database-roles';

describe('databaseTenants', () => {
  it('is every manifest service, then the gateway', () => {
    const tenants = databaseTenants([
      { name: 'users', schema: 'users' },
      { name: 'email-marketing', schema: 'email_marketing' },
    ]);
    expect(tenants).toEqual([
      { name: 'users', schema: 'users' },
      { name: 'email-marketing', schema: 'email_marketing' },
      { name: 'gateway', schema: 'gateway' },
    ]);
  });
});

describe('tenant names and URLs', () => {
  it('names a role and its bootstrap variable after the schema', () => {
    expect(tenantRoleOf('email_marketing')).toBe('irp_email_marketing');
    expect(tenantUrlVariable('email_marketing')).toBe('DATABASE_URL_EMAIL_MARKETING');
  });

  it("puts the tenant's role (and a password) in the admin URL", () => {
    const admin = 'postgres://postgres:secret@127.0.0.1:5432/irportal_test?sslmode=disable';
    expect(tenantDatabaseUrl(admin, 'users')).toBe(
      'postgres://irp_users@127.0.0.1:5432/irportal_test?sslmode=disable',
    );
    expect(tenantDatabaseUrl(admin, 'users', 'p@ss/word')).toBe(
      'postgres://irp_users:p%40ss%2Fword@127.0.0.1:5432/irportal_test?sslmode=disable',
    );
  });

  it('reads the role and password back from a URL', () => {
    expect(tenantGrantOf('users', 'postgres://irp_users:p%40ss@db:5432/irportal')).toEqual({
      schema: 'users',
      role: 'irp_users',
      password: 'p@ss',
    });
    expect(tenantGrantOf('users', 'postgres://irp_users@db/irportal').password).toBeUndefined();
    expect(() => tenantGrantOf('users', 'postgres://db/irportal')).toThrow(/names no user/);
  });
});

describe('bootstrapStatements', () => {
  const sql = bootstrapStatements('irportal', [
    { schema: 'users', role: 'irp_users' },
    { schema: 'stocks', role: 'irp_stocks', password: "it's" },
  ]);

  it('takes from PUBLIC the right to connect and to create in the database or in public', () => {
    expect(sql.slice(0, 2)).toEqual([
      'REVOKE ALL ON DATABASE "irportal" FROM PUBLIC',
      'REVOKE CREATE ON SCHEMA public FROM PUBLIC',
    ]);
  });

  it('gives each tenant a login role that may connect and owns its schema, made idempotently', () => {
    const users = sql.filter((s) => s.includes('"irp_users"') || s.includes("'irp_users'"));
    expect(users).toEqual([
      expect.stringMatching(
        /^DO \$\$ BEGIN CREATE ROLE "irp_users" LOGIN; EXCEPTION WHEN duplicate_object OR unique_violation/,
      ),
      'ALTER ROLE "irp_users" LOGIN',
      'GRANT CONNECT ON DATABASE "irportal" TO "irp_users"',
      'CREATE SCHEMA IF NOT EXISTS "users" AUTHORIZATION "irp_users"',
      'ALTER SCHEMA "users" OWNER TO "irp_users"',
      expect.stringContaining("EXECUTE format('ALTER %s %I.%I OWNER TO %I', o.kind, 'users'"),
    ]);
    expect(sql).toContain('REVOKE ALL ON SCHEMA "users" FROM PUBLIC');
  });

  it('sets a password only when one is given, as a quoted literal', () => {
    expect(sql).toContain(`ALTER ROLE "irp_stocks" LOGIN PASSWORD 'it''s'`);
    expect(sql.filter((s) => s.includes('PASSWORD'))).toHaveLength(1);
  });

  it('grants nothing on one schema to another tenant, nor anything but CONNECT on the database', () => {
    const grants = sql.filter((s) => /^GRANT/.test(s));
    expect(grants).toEqual([
      'GRANT CONNECT ON DATABASE "irportal" TO "irp_users"',
      'GRANT CONNECT ON DATABASE "irportal" TO "irp_stocks"',
    ]);
    const stocks = sql.filter((s) => s.includes('"stocks"') || s.includes("'stocks'"));
    expect(stocks.join('\n')).not.toMatch(/irp_users/);
  });

  it('refuses a name that is not a plain lower-case identifier', () => {
    expect(() => bootstrapStatements('irportal', [{ schema: 'users"; DROP', role: 'irp_users' }])).toThrow(
      /not a lower-case PostgreSQL identifier/,
    );
    expect(() => bootstrapStatements('Irportal', [])).toThrow(/identifier/);
  });
});
