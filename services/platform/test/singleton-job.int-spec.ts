import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { postgresJobLock, SingletonJob, SingletonJobs } from '@irp/platform';
import { loadTestEnv, waitUntil } from '@irp/platform/testing';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

describe('a singleton job on a PostgreSQL advisory lock', () => {
  const name = `int-test-${randomUUID()}`;
  let admin: Client;
  const jobs: SingletonJob[] = [];
  const runs: Array<{ holder: string; at: number }> = [];

  const contender = (holder: string) => {
    const job = new SingletonJob({
      name,
      holder,
      intervalMs: 200,
      lock: postgresJobLock(loadTestEnv().DATABASE_URL, name, holder),
      run: async () => void runs.push({ holder, at: Date.now() }),
    });
    jobs.push(job);
    job.start();
    return job;
  };

  /** The backend of a holder's lock connection, found by the application_name it sets. */
  const lockBackend = async (holder: string): Promise<number | undefined> => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1`,
      [`job:${name}:${holder}`.slice(0, 63)],
    );
    return rows[0]?.pid;
  };

  beforeAll(async () => {
    admin = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all(jobs.map((j) => j.stop()));
    await admin?.end();
  });

  it('runs on one holder, and another takes over within seconds when the holder’s connection dies', async () => {
    const a = contender('instance-a');
    await waitUntil('a holds the job', () => a.isHolder);
    const b = contender('instance-b');
    await waitUntil('a ran three times', () => runs.filter((r) => r.holder === 'instance-a').length >= 3);
    expect(b.isHolder).toBe(false);
    expect(runs.some((r) => r.holder === 'instance-b')).toBe(false);
    // Both contend on connections of their own; the lock shows who holds it.
    expect(await lockBackend('instance-b')).toBeDefined();
    const { rows: holders } = await admin.query<{ application_name: string }>(
      `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE $1`,
      [`job:${name}:%`.slice(0, 63)],
    );
    expect(holders.map((h) => h.application_name)).toEqual([`job:${name}:instance-a`.slice(0, 63)]);

    // What a SIGKILL of the holder does to the database: its session ends, and the lock with it.
    const killedAt = Date.now();
    await admin.query('SELECT pg_terminate_backend($1)', [await lockBackend('instance-a')]);
    await waitUntil('b takes over', () => b.isHolder, 5000);
    await waitUntil('b runs', () => runs.some((r) => r.holder === 'instance-b'));
    expect(Date.now() - killedAt).toBeLessThan(5000);
    await waitUntil('a knows it lost the lock', () => !a.isHolder, 5000);

    // From the take-over on, only b runs the job, although a contends again on a new connection.
    const tookOver = runs.find((r) => r.holder === 'instance-b')!.at;
    await waitUntil('b ran three times', () => runs.filter((r) => r.holder === 'instance-b').length >= 3);
    expect(runs.filter((r) => r.at > tookOver + 250 && r.holder === 'instance-a')).toEqual([]);
    await waitUntil('a contends again', async () => (await lockBackend('instance-a')) !== undefined);
    expect(a.isHolder).toBe(false);
  });

  it('stop() releases the lock at once, so the other contender takes over', async () => {
    const [a, b] = jobs;
    const holder = b.isHolder ? b : a;
    const other = holder === a ? b : a;
    await holder.stop();
    await waitUntil('the other contender takes over', () => other.isHolder, 3000);
  });

  it("holds a process's jobs on one connection: when it dies, all of them are lost, and each is held again", async () => {
    const url = loadTestEnv().DATABASE_URL;
    const names = [`${name}-x`, `${name}-y`, `${name}-z`];
    const processes: SingletonJobs[] = [];
    const processOf = (holder: string) => {
      const registry = new SingletonJobs(url, holder, true);
      for (const job of names) registry.register({ name: job, intervalMs: 200, run: async () => undefined });
      registry.start();
      processes.push(registry);
      return registry;
    };
    const connectionsOf = async (holder: string) =>
      (
        await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [
          `jobs:${holder}`,
        ])
      ).rows.map((r) => r.pid);
    try {
      const p = processOf('process-p');
      await waitUntil('p holds its three jobs', () => p.list().every((j) => j.isHolder));
      const q = processOf('process-q');
      await waitUntil('q contends', async () => (await connectionsOf('process-q')).length === 1);
      const [pConnection, ...more] = await connectionsOf('process-p');
      expect(more).toEqual([]);
      expect(q.list().some((j) => j.isHolder)).toBe(false);

      // The connection's end takes every lock of the process with it.
      await admin.query('SELECT pg_terminate_backend($1)', [pConnection]);
      await waitUntil('p knows it lost all three', () => p.list().every((j) => !j.isHolder), 5000);
      // Each job is held again, by one process (q contends every second, p again on a new connection).
      await waitUntil(
        'every job held by one process',
        () => names.every((_, i) => [p, q].filter((r) => r.list()[i]!.isHolder).length === 1),
        10_000,
      );
      await waitUntil('p contends again on one connection', async () => {
        const now = await connectionsOf('process-p');
        return now.length === 1 && now[0] !== pConnection;
      });
    } finally {
      await Promise.all(processes.map((r) => r.stop()));
    }
    // Stopped: the connections are closed.
    expect(await connectionsOf('process-p')).toEqual([]);
    expect(await connectionsOf('process-q')).toEqual([]);
  });
});
