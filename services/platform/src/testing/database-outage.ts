import { Client } from 'pg';
import { loadTestEnv } from './harness';

/**
 * A database outage for a service under test, without touching the server: for `forMs`, every `everyMs` it
 * terminates (`pg_terminate_backend`) the connections of the test database whose application_name is one of
 * `applicationNames` (a service's pool is named after its schema, its outbox relay `outbox-relay:<schema>`),
 * so each query the service starts meanwhile fails as it would while Postgres restarts. Only this test
 * database's connections, never another database's. Resolves to how many connections it terminated.
 */
export async function databaseOutage(
  applicationNames: readonly string[],
  forMs: number,
  everyMs = 100,
): Promise<number> {
  const pg = new Client({ connectionString: loadTestEnv().DATABASE_URL, application_name: 'test-outage' });
  await pg.connect();
  let terminated = 0;
  try {
    const until = Date.now() + forMs;
    while (Date.now() < until) {
      const { rows } = await pg.query<{ done: boolean }>(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = ANY($1::text[]) AND pid <> pg_backend_pid()`,
        [applicationNames],
      );
      terminated += rows.filter((r) => r.done).length;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  } finally {
    await pg.end();
  }
  return terminated;
}
