import dotenv from 'dotenv';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { consumerGroupOf, repoRoot } from '@irp/platform';
import { Topics } from '@irp/proto';
import {
  dropSchema,
  loadTestEnv,
  ServiceProcess,
  startServiceProcess,
  TopicProbe,
  waitUntil,
} from '@irp/platform/testing';
import { Client } from 'pg';
import { itWhen } from '../../../scripts/testing/skip-conditions';
import { startAsxStandIn, type AsxStandIn } from '../src/standin/asx-standin';
import { pollingEnv, removeDataDir, waitForGroups } from './polling-harness';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(240_000);

/**
 * The poller role scaled out, with real processes (services/announcements/dist: build first): one scheduler
 * and two pollers over 200 stocks on the ASX stand-in store every announcement exactly once, with one
 * `announcement.detected` each; a poller killed mid-poll, a broker restart and a database outage lose none.
 */

const STOCKS = 200;
/** The machine's maintenance database on the test database's server. */
const maintenanceUrl = () => {
  const url = new URL(loadTestEnv().DATABASE_URL);
  url.pathname = '/postgres';
  return url.toString();
};
const GROUP = consumerGroupOf('announcements', 'poller');
const ticker = (i: number) => `P${String(i).padStart(3, '0')}`;

/** The broker of this test run, when the infra script started it locally: then the test may restart it. */
function ownLocalBroker() {
  const file = process.env.INFRA_ENV_FILE ?? join(repoRoot(), '.local', 'test.env');
  if (!existsSync(file)) return null;
  const env = dotenv.parse(readFileSync(file, 'utf8'));
  const pid = Number(env.KAFKA_PID);
  const alive = (() => {
    try {
      return pid > 0 && process.kill(pid, 0);
    } catch {
      return false;
    }
  })();
  if (
    env.KAFKA_BROKERS !== loadTestEnv().KAFKA_BROKERS ||
    !(env.INFRA_STARTED ?? '').split(',').includes('kafka') ||
    !alive
  )
    return null;
  const dir = isAbsolute(env.INFRA_DIR) ? env.INFRA_DIR : join(repoRoot(), env.INFRA_DIR);
  const props = readFileSync(join(dir, 'kafka', 'server.properties'), 'utf8');
  const controllerPort = /controller\.quorum\.voters=\d+@[^:]+:(\d+)/.exec(props)?.[1];
  const port = /:(\d+)$/.exec(env.KAFKA_BROKERS)?.[1];
  if (!controllerPort || !port) return null;
  return { file, pid, dir, port, controllerPort };
}

const broker = ownLocalBroker();

/**
 * Restarts the test broker the way the infra script runs it: SIGTERM to the broker it started, then its
 * `up` again (same INFRA_DIR: same data, topics and committed offsets), which waits until it answers.
 */
async function restartBroker(b: NonNullable<typeof broker>): Promise<void> {
  process.kill(b.pid, 'SIGTERM');
  await waitUntil(
    'the broker stopped',
    () => {
      try {
        process.kill(b.pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    60_000,
    100,
  );
  const database = new URL(loadTestEnv().DATABASE_URL).pathname.slice(1);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      ['deploy/local/infra.mjs', 'up', '--env', b.file, '--database', database, '--no-topics'],
      {
        cwd: repoRoot(),
        env: {
          ...process.env,
          INFRA_DIR: b.dir,
          KAFKA_PORT: b.port,
          KAFKA_CONTROLLER_PORT: b.controllerPort,
        },
        stdio: 'inherit',
      },
    );
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`infra.mjs up exited ${code}: the broker did not come back`);
}

describe('two pollers and a scheduler as processes', () => {
  let standIn: AsxStandIn;
  let probe: TopicProbe;
  let pg: Client;
  let env: NodeJS.ProcessEnv;
  const processes: Record<string, ServiceProcess> = {};

  const start = (instance: string, roles: string[]) =>
    startServiceProcess('announcements', { roles, env: { ...env, INSTANCE_ID: instance } });
  const count = async (where = 'true'): Promise<number> =>
    (
      await pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM announcements.announcements WHERE ${where}`,
      )
    ).rows[0].n;
  const publishWave = (wave: string) => {
    const ids: string[] = [];
    for (let i = 1; i <= STOCKS; i++)
      ids.push(
        standIn.publish({
          ticker: ticker(i),
          headline: `${wave} for ${ticker(i)}`,
          priceSensitive: i % 2 === 0,
        }).id,
      );
    return ids;
  };
  /** Every announcement of the wave stored once, none left without its PDF, every event published. */
  const expectAllStored = async (wave: string, ids: string[], timeoutMs = 90_000) => {
    await waitUntil(
      `${wave}: all stored with their PDFs`,
      async () =>
        (await count(`headline LIKE '${wave} %' AND file_status = 'stored'`)) === ids.length &&
        (await count(`file_status = 'pending'`)) === 0,
      timeoutMs,
      250,
    );
    const { rows } = await pg.query<{ source_key: string }>(
      `SELECT source_key FROM announcements.announcements WHERE headline LIKE $1`,
      [`${wave} %`],
    );
    expect(rows.map((r) => r.source_key).sort()).toEqual([...ids].sort());
    const [dups] = (
      await pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT stock_id, source_key FROM announcements.announcements
           GROUP BY 1, 2 HAVING count(*) > 1) d`,
      )
    ).rows;
    expect(dups.n).toBe(0);
    await waitUntil(
      `${wave}: every event published`,
      async () =>
        (
          await pg.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM announcements.outbox WHERE published_at IS NULL`,
          )
        ).rows[0].n === 0,
      30_000,
    );
  };
  const handledPolls = async (p: ServiceProcess) => {
    const text = await (await fetch(`${p.healthUrl}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(
          `irp_kafka_handled_messages_total{topic="${Topics.AnnouncementsPollRequested}",outcome="ok"`,
        ),
      );
    return line ? Number(line.split(' ').pop()) : 0;
  };

  beforeAll(async () => {
    await dropSchema('announcements');
    standIn = await startAsxStandIn({ port: 0 });
    pg = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await pg.connect();
    probe = await TopicProbe.listen([Topics.AnnouncementDetected]);
    // 200 stocks every 3 s: 67 polls a second, twice what 2,000 stocks a minute ask of production pollers.
    env = pollingEnv(standIn, { POLL_INTERVAL_MS: '3000', SOURCE_TIMEOUT_MS: '5000' });
    // The scheduler first: it runs the schema's migrations, then the stocks can be written.
    processes.scheduler = await start('scheduler', ['scheduler']);
    await pg.query(
      `INSERT INTO announcements.stocks (id, ticker, exchange, combined_ticker, announcement_start_year, poll_asx,
         completed_initial_poll, updated_at)
       SELECT gen_random_uuid(), 'P' || lpad(n::text, 3, '0'), 'ASX', 'P' || lpad(n::text, 3, '0') || ':ASX', 2020,
         true, true, now()
       FROM generate_series(1, ${STOCKS}) AS n`,
    );
    [processes.a, processes.b] = await Promise.all([
      start('poller-a', ['poller']),
      start('poller-b', ['poller']),
    ]);
    await waitForGroups([GROUP], 'poller-a');
    await waitForGroups([GROUP], 'poller-b');
  });

  afterAll(async () => {
    await Promise.all(Object.values(processes).map((p) => p.stop()));
    await probe?.close();
    await standIn?.close();
    removeDataDir(env);
    await pg?.end();
  });

  it('store every announcement exactly once, with one announcement.detected each, sharing the work', async () => {
    const ids = publishWave('First');
    await expectAllStored('First', ids);
    await waitUntil(
      'a detected event for each',
      () =>
        new Set(probe.received.map((m) => (m.value as { announcement: { id: string } }).announcement.id))
          .size >= ids.length,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const perAnnouncement = new Map<string, number>();
    for (const m of probe.received) {
      const id = (m.value as { announcement: { id: string } }).announcement.id;
      perAnnouncement.set(id, (perAnnouncement.get(id) ?? 0) + 1);
    }
    expect(perAnnouncement.size).toBe(ids.length);
    expect([...perAnnouncement.values()].every((n) => n === 1)).toBe(true);
    // Both pollers took part.
    expect(await handledPolls(processes.a)).toBeGreaterThan(0);
    expect(await handledPolls(processes.b)).toBeGreaterThan(0);
  });

  it('lose nothing when a poller is killed mid-poll: the other finishes its stocks and their pending PDFs', async () => {
    const ids = publishWave('Second');
    await waitUntil(
      'the pollers busy with the wave',
      async () => (await count(`headline LIKE 'Second %'`)) >= 20,
      60_000,
      20,
    );
    // Its uncommitted poll requests go to the other poller after the session timeout; what it stored without
    // its PDF yet is finished by the next poll of the stock.
    await processes.a.kill('SIGKILL');
    delete processes.a;
    await expectAllStored('Second', ids);
    processes.c = await start('poller-c', ['poller']);
  });

  // Only a broker this run's infra script started locally can be restarted from here (Docker or a given KAFKA_BROKERS cannot).
  itWhen('ownBroker', broker !== null)('miss nothing across a broker restart mid-poll', async () => {
    const ids = publishWave('Third');
    await waitUntil(
      'the pollers busy with the wave',
      async () => (await count(`headline LIKE 'Third %'`)) >= 20,
      60_000,
      20,
    );
    await restartBroker(broker!);
    await expectAllStored('Third', ids, 120_000);
  });

  it('miss nothing across a database outage mid-poll (every connection dropped, new ones refused for a while)', async () => {
    const ids = publishWave('Fourth');
    await waitUntil(
      'the pollers busy with the wave',
      async () => (await count(`headline LIKE 'Fourth %'`)) >= 20,
      60_000,
      20,
    );
    // What the services see of a restart of the machine's shared PostgreSQL, without restarting it: every
    // session of the test database ends (57P01, as in a shutdown) and new ones are refused until it is back.
    // Done from the server's maintenance database: a database cannot refuse connections to itself.
    const admin = new Client({ connectionString: maintenanceUrl() });
    await admin.connect();
    const database = new URL(loadTestEnv().DATABASE_URL).pathname.slice(1);
    const ours = (await pg.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    try {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2`,
        [database, ours],
      );
      expect(rows[0].n).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await expectAllStored('Fourth', ids, 120_000);
  });
});
