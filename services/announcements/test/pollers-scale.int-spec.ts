import { consumerGroupOf } from '@irp/platform';
import { Topics } from '@irp/proto';
import {
  dropSchema,
  loadTestEnv,
  ownLocalBroker,
  restartBroker,
  ServiceProcess,
  startServiceProcess,
  handledMessages,
  topicEnds,
  TopicProbe,
  untilProbeAtEnd,
  waitUntil,
} from '@irp/platform/testing';
import { Client } from 'pg';
import { itWhen } from '../../../scripts/testing/skip-conditions';
import { startAsxStandIn, type AsxStandIn } from '@irp/standins/asx';
import { completedInitialPollsSql, pollingEnv, removeDataDir, waitForGroups } from './polling-harness';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
// Generous: each wait ends when its condition holds; beside three other lanes on 2 cores a wave has taken
// minutes (no test has a time budget: speed is bench/'s business).
jest.setTimeout(600_000);

/**
 * The poller role scaled out, with real processes (services/announcements/dist: build first): one scheduler
 * and two pollers over 100 stocks on the ASX stand-in store every announcement exactly once, with one
 * `announcement.detected` each; a poller killed mid-poll, a broker restart and a database outage lose none.
 */

// 100: enough for both pollers to hold work at every failure; the rate at scale is the bench's (200 took 400 s
// beside two other lanes on 2 cores, 800 s with more work beside it).
const STOCKS = 100;
/** The machine's maintenance database on the test database's server. */
const maintenanceUrl = () => {
  const url = new URL(loadTestEnv().DATABASE_URL);
  url.pathname = '/postgres';
  return url.toString();
};
const GROUP = consumerGroupOf('announcements', 'poller');
const ticker = (i: number) => `P${String(i).padStart(3, '0')}`;

/** The broker of this test run, when the infra script started it locally: then the test may restart it. */
let broker = ownLocalBroker();

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
  /** Announcement ids of every wave so far: each is checked again at every later wave's end. */
  const detectedIds: string[] = [];
  /**
   * Announcements whose `announcement.detected` may be on the topic more than once: the outbox relay publishes
   * at least once, so a batch it had sent to the broker but not yet marked published when a failure cut it off
   * is sent again, and the producer's own retries across a broker restart may have written it twice already
   * (a fresh-clone run saw 3 copies of one). Read at the failure (the outbox rows not published then), never
   * after the fact; every other announcement is on the topic exactly once.
   */
  const mayRepeat = new Set<string>();
  const unpublishedAnnouncements = async () =>
    (
      await pg.query<{ id: string }>(
        `SELECT payload->'announcement'->>'id' AS id FROM announcements.outbox
         WHERE topic = $1 AND published_at IS NULL`,
        [Topics.AnnouncementDetected],
      )
    ).rows.map((r) => r.id);
  let detectedEndsAtJoin: Map<number, bigint>;
  /**
   * Every announcement of the wave stored, none left without its PDF; then exactly one `announcement.detected`
   * for it: one outbox row (what the relay publishes from, so a poller storing or re-announcing twice shows
   * here), and, once every outbox row is published and the probe has read the topic to its end (nothing more
   * can come), one message on the topic for it and for every announcement of the earlier waves (more only for
   * those in `mayRepeat`, which consumers drop by its id).
   */
  const expectAllStored = async (wave: string, ids: string[], timeoutMs = 400_000) => {
    await waitUntil(
      `${wave}: all stored with their PDFs`,
      async () =>
        (await count(`headline LIKE '${wave} %' AND file_status = 'stored'`)) === ids.length &&
        (await count(`file_status = 'pending'`)) === 0,
      timeoutMs,
      250,
    );
    const { rows } = await pg.query<{ id: string; source_key: string }>(
      `SELECT id, source_key FROM announcements.announcements WHERE headline LIKE $1`,
      [`${wave} %`],
    );
    expect(rows.map((r) => r.source_key).sort()).toEqual([...ids].sort());
    detectedIds.push(...rows.map((r) => r.id));
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
    const outboxRows = new Map(
      (
        await pg.query<{ id: string; n: number }>(
          `SELECT payload->'announcement'->>'id' AS id, count(*)::int AS n FROM announcements.outbox
           WHERE topic = $1 AND payload->'announcement'->>'id' = ANY($2::text[]) GROUP BY 1`,
          [Topics.AnnouncementDetected, detectedIds],
        )
      ).rows.map((r) => [r.id, r.n]),
    );
    expect(
      detectedIds.filter((id) => outboxRows.get(id) !== 1).map((id) => `${id}: ${outboxRows.get(id) ?? 0}`),
    ).toEqual([]);
    await untilProbeAtEnd(probe, Topics.AnnouncementDetected, detectedEndsAtJoin);
    const onTopic = new Map<string, number>();
    for (const m of probe.received) {
      const id = (m.value as { announcement: { id: string } }).announcement.id;
      onTopic.set(id, (onTopic.get(id) ?? 0) + 1);
    }
    const wrong = detectedIds
      .map((id) => ({ id, n: onTopic.get(id) ?? 0 }))
      .filter(({ id, n }) => n !== 1 && !(n > 1 && mayRepeat.has(id)))
      .map(
        ({ id, n }) => `${id}: ${n} on the topic${mayRepeat.has(id) ? ' (in flight at the failure)' : ''}`,
      );
    expect(wrong).toEqual([]);
    const repeated = detectedIds.filter((id) => (onTopic.get(id) ?? 0) > 1).length;
    if (repeated)
      console.info(`${wave}: ${repeated} event(s) published again after the failure (at least once)`);
  };
  beforeAll(async () => {
    await dropSchema('announcements');
    standIn = await startAsxStandIn({ port: 0 });
    pg = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await pg.connect();
    probe = await TopicProbe.listen([Topics.AnnouncementDetected]);
    // Read before anything is detected: what the probe, joining at the end, never reads.
    detectedEndsAtJoin = await topicEnds(Topics.AnnouncementDetected);
    // 100 stocks every 3 s: 33 polls a second, what 2,000 stocks a minute ask of production pollers.
    env = pollingEnv(standIn, { POLL_INTERVAL_MS: '3000', SOURCE_TIMEOUT_MS: '5000' });
    // The scheduler first: it runs the schema's migrations, then the stocks can be written.
    processes.scheduler = await start('scheduler', ['scheduler']);
    await pg.query(
      `INSERT INTO announcements.stocks (id, ticker, exchange, combined_ticker, announcement_start_year, poll_asx,
         updated_at)
       SELECT gen_random_uuid(), 'P' || lpad(n::text, 3, '0'), 'ASX', 'P' || lpad(n::text, 3, '0') || ':ASX', 2020,
         true, now()
       FROM generate_series(1, ${STOCKS}) AS n`,
    );
    await pg.query(completedInitialPollsSql());
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
    // Both pollers took part.
    expect(await handledMessages(processes.a.healthUrl, Topics.AnnouncementsPollRequested)).toBeGreaterThan(
      0,
    );
    expect(await handledMessages(processes.b.healthUrl, Topics.AnnouncementsPollRequested)).toBeGreaterThan(
      0,
    );
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
    // its PDF yet is finished by the next poll of the stock; what it stored and had not committed the request
    // of is polled again and must not be announced again. The outbox relay's lock is held across the kill, so
    // the kill never cuts a relay batch off (the database outage below does): the check is exactly one each.
    const relayLock = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await relayLock.connect();
    try {
      await relayLock.query(`SELECT pg_advisory_lock(hashtext('outbox:announcements'))`);
      await processes.a.kill('SIGKILL');
      delete processes.a;
    } finally {
      await relayLock.end();
    }
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
    // A relay batch cut off by the stop is sent again: its rows are still unpublished while the broker is down.
    broker = await restartBroker(broker!, async () => {
      for (const id of await unpublishedAnnouncements()) mayRepeat.add(id);
    });
    await expectAllStored('Third', ids);
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
      // Nothing but this session can reach the database now: a relay batch the outage cut off has rolled back
      // (its rows read unpublished here) and is sent again once the relay is back.
      for (const id of await unpublishedAnnouncements()) mayRepeat.add(id);
      // Not a wait for something to happen: the length of the outage the services ride out.
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await expectAllStored('Fourth', ids);
  });
});
