import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, AssignerProtocol, Kafka, Producer } from 'kafkajs';
import { Client } from 'pg';
import ts from 'typescript';
import { consumerGroupOf, kafkaClientConfig } from '@irp/platform';
import {
  dropSchema,
  loadTestEnv,
  rawProducer,
  ServiceProcess,
  startServiceProcess,
  waitUntil,
} from '@irp/platform/testing';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

/**
 * Scaling roles on the real broker, with real processes: two instances of the fixture service's `worker`
 * role share the partitions of a topic in the role's consumer group, each message is handled once, and a
 * SIGKILL of one hands its partitions to the other with no message lost.
 */

const FIXTURE_DIR = join(__dirname, 'fixtures');
const SCHEMA = 'platform_fixture';
const PARTITIONS = 6;
const GROUP = consumerGroupOf('fixture', 'worker');
const API_GROUP = consumerGroupOf('fixture', 'api');
/** The worker role's consumer of its own (the fixture's manifest entry: `consumers`). */
const URGENT_GROUP = consumerGroupOf('fixture', 'worker', 'urgent');

/** Compiles the fixture service to JavaScript beside its source, so `node` can run it as a process. */
function buildFixture(): string {
  const source = join(FIXTURE_DIR, 'fixture-service.ts');
  const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
    fileName: source,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
    },
  });
  mkdirSync(join(FIXTURE_DIR, 'dist'), { recursive: true });
  const script = join(FIXTURE_DIR, 'dist', 'fixture-service.js');
  writeFileSync(script, outputText);
  return script;
}

interface Handled {
  id: string;
  first_instance: string;
  last_instance: string;
  partition: number;
  deliveries: number;
  handled_at: Date;
  redelivered_at: Date | null;
}

describe('two instances of one consumer role', () => {
  const topic = `platform-test.roles-${randomUUID().slice(0, 8)}`;
  const apiTopic = `${topic}.api`;
  const urgentTopic = `${topic}.urgent`;
  let admin: Admin;
  let producer: Producer;
  let pg: Client;
  let script: string;
  const instances: Record<string, ServiceProcess> = {};

  const start = (instance: string, roles: string[] = ['worker']) =>
    startServiceProcess('fixture', {
      script,
      roles,
      env: {
        INSTANCE_ID: instance,
        FIXTURE_TOPIC: topic,
        // Slow enough that the kill lands while messages are being handled.
        FIXTURE_HANDLE_DELAY_MS: '4',
        SERVICE_NAME: 'fixture',
      },
    });

  const handled = async (): Promise<Handled[]> =>
    (await pg.query<Handled>(`SELECT * FROM ${SCHEMA}.handled ORDER BY handled_at`)).rows;

  /** The members of a role's group and the partitions of its topic each owns. */
  const groupMembers = async (group = GROUP, of = topic) => {
    const { groups } = await admin.describeGroups([group]);
    return groups[0].members.map((m) => {
      const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {};
      return { clientId: m.clientId, topics: Object.keys(assignment), partitions: assignment[of] ?? [] };
    });
  };

  const send = async (ids: string[], to = topic) => {
    await producer.send({
      topic: to,
      messages: ids.map((id) => ({ key: id, value: JSON.stringify({ id }) })),
    });
  };

  beforeAll(async () => {
    const env = loadTestEnv();
    script = buildFixture();
    await dropSchema(SCHEMA);
    const kafka = new Kafka(
      kafkaClientConfig({ brokers: env.KAFKA_BROKERS.split(','), service: 'roles-test', instanceId: '1' }),
    );
    admin = kafka.admin();
    await admin.connect();
    // The broker creates no topic on its own; this test's topic is its own.
    await admin.createTopics({
      topics: [
        { topic, numPartitions: PARTITIONS },
        { topic: apiTopic, numPartitions: 2 },
        { topic: urgentTopic, numPartitions: 2 },
      ],
      waitForLeaders: true,
    });
    // The groups start at the topics' beginning: a member that joins after this test sends cannot miss anything.
    await admin.setOffsets({
      groupId: GROUP,
      topic,
      partitions: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, offset: '0' })),
    });
    await admin.setOffsets({
      groupId: API_GROUP,
      topic: apiTopic,
      partitions: [0, 1].map((partition) => ({ partition, offset: '0' })),
    });
    await admin.setOffsets({
      groupId: URGENT_GROUP,
      topic: urgentTopic,
      partitions: [0, 1].map((partition) => ({ partition, offset: '0' })),
    });
    producer = await rawProducer();
    pg = new Client({ connectionString: env.DATABASE_URL });
    await pg.connect();
    // One at a time: the first runs the schema's migrations, the second finds them done.
    instances.a = await start('instance-a');
    instances.b = await start('instance-b');
  });

  afterAll(async () => {
    await Promise.all(Object.values(instances).map((i) => i.stop()));
    await producer?.disconnect();
    await admin?.deleteTopics({ topics: [topic, apiTopic, urgentTopic] }).catch(() => undefined);
    await admin?.disconnect();
    await pg?.end();
  });

  it('join the role’s own consumer group and split the partitions between them', async () => {
    await waitUntil(
      'both instances own partitions',
      async () => {
        const members = await groupMembers();
        return members.length === 2 && members.every((m) => m.partitions.length > 0);
      },
      30_000,
    );
    const members = await groupMembers();
    expect(members.flatMap((m) => m.partitions).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(members.map((m) => m.clientId).sort()).toEqual([`${GROUP}-instance-a`, `${GROUP}-instance-b`]);
    // A worker process does not join the api role's group.
    expect(await groupMembers(API_GROUP, apiTopic)).toEqual([]);
    const health = await (await fetch(`${instances.a.healthUrl}/health`)).json();
    expect(health).toMatchObject({
      status: 'ok',
      service: 'fixture',
      instance: 'instance-a',
      roles: ['worker'],
    });
  });

  it('handle each message once, on both instances', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `first-${i}`);
    await send(ids);
    await waitUntil('all handled', async () => (await handled()).length === ids.length, 30_000);
    const rows = await handled();
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(rows.filter((r) => r.deliveries !== 1)).toEqual([]);
    const byInstance = new Set(rows.map((r) => r.first_instance));
    expect([...byInstance].sort()).toEqual(['instance-a', 'instance-b']);
  });

  it('after a SIGKILL of one, the other takes its partitions over and no message is lost', async () => {
    const before = await groupMembers();
    const partitionsOfA = before.find((m) => m.clientId.endsWith('instance-a'))!.partitions;
    const ids = Array.from({ length: 1200 }, (_, i) => `second-${i}`);
    await send(ids);
    // Kill a while it is in the middle of the backlog: some of its messages handled, some not yet.
    await waitUntil(
      'a has handled some of the second batch',
      async () =>
        (
          await pg.query(
            `SELECT count(*)::int AS n FROM ${SCHEMA}.handled WHERE id LIKE 'second-%' AND first_instance = 'instance-a'`,
          )
        ).rows[0].n >= 50,
      30_000,
    );
    await instances.a.kill('SIGKILL'); // resolves once the process has exited
    delete instances.a;
    // The moment a is gone, on the database's clock (the clock of handled_at and redelivered_at): a cannot
    // have written after it, and b is given a's partitions only after it.
    const killedAt: Date = (await pg.query('SELECT clock_timestamp() AS t')).rows[0].t;

    await waitUntil(
      'every message handled',
      async () => {
        const { rows } = await pg.query(
          `SELECT count(*)::int AS n FROM ${SCHEMA}.handled WHERE id LIKE 'second-%'`,
        );
        return rows[0].n === ids.length;
      },
      60_000,
    );
    const rows = (await handled()).filter((r) => r.id.startsWith('second-'));
    // None lost: every id has its record, recorded once (the record is idempotent by id).
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    // b took a's partitions over and handled messages on them after the kill.
    const takenOver = rows.filter(
      (r) =>
        partitionsOfA.includes(r.partition) && r.first_instance === 'instance-b' && r.handled_at > killedAt,
    );
    expect(takenOver.length).toBeGreaterThan(0);
    // A message delivered twice is only ever one a handled before the kill whose offset it had not
    // committed yet (at-least-once redelivery), given again to b after the kill: never a second handling
    // while both ran, never a message of b's own partitions.
    for (const r of rows.filter((row) => row.deliveries > 1)) {
      expect(r).toMatchObject({ first_instance: 'instance-a', last_instance: 'instance-b' });
      expect(r.handled_at.getTime()).toBeLessThanOrEqual(killedAt.getTime());
      expect(r.redelivered_at!.getTime()).toBeGreaterThan(killedAt.getTime());
      expect(partitionsOfA).toContain(r.partition);
    }
    const members = await groupMembers();
    expect(members.map((m) => m.clientId)).toEqual([`${GROUP}-instance-b`]);
    expect(members[0].partitions.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('run one consumer per role, each in its role’s group, in a process with several roles', async () => {
    instances.c = await start('instance-c', ['api', 'worker', 'idle']);
    await waitUntil(
      'c joined both groups',
      async () =>
        (await groupMembers(API_GROUP, apiTopic)).length === 1 && (await groupMembers()).length === 2,
      30_000,
    );
    // Each consumer of c subscribes to its role's topics only.
    expect(
      (await groupMembers(API_GROUP, apiTopic)).map(({ clientId, topics }) => ({ clientId, topics })),
    ).toEqual([{ clientId: `${API_GROUP}-instance-c`, topics: [apiTopic] }]);
    expect(
      (await groupMembers())
        .map(({ clientId, topics }) => ({ clientId, topics }))
        .sort((x, y) => x.clientId.localeCompare(y.clientId)),
    ).toEqual([
      { clientId: `${GROUP}-instance-b`, topics: [topic] },
      { clientId: `${GROUP}-instance-c`, topics: [topic] },
    ]);
    const health = (await (await fetch(`${instances.c.healthUrl}/health`)).json()) as { roles: string[] };
    expect(health.roles).toEqual(['api', 'worker', 'idle']);

    const apiIds = Array.from({ length: 20 }, (_, i) => `api-${i}`);
    await send(apiIds, apiTopic);
    await waitUntil('api messages handled', async () => {
      const { rows } = await pg.query(
        `SELECT count(*)::int AS n FROM ${SCHEMA}.handled WHERE id LIKE 'api-%'`,
      );
      return rows[0].n === apiIds.length;
    });
    const rows = (await handled()).filter((r) => r.id.startsWith('api-'));
    expect(new Set(rows.map((r) => r.first_instance))).toEqual(new Set(['instance-c']));
    expect(rows.filter((r) => r.deliveries !== 1)).toEqual([]);
  });

  it("takes the topics of a role's own consumer in a group of their own, beside the role's busy consumer", async () => {
    const count = async (like: string, instance?: string) =>
      (
        await pg.query(
          `SELECT count(*)::int AS n FROM ${SCHEMA}.handled WHERE id LIKE $1 AND ($2::text IS NULL OR first_instance = $2)`,
          [like, instance ?? null],
        )
      ).rows[0].n as number;
    await waitUntil(
      'b and c joined the urgent group',
      async () => (await groupMembers(URGENT_GROUP, urgentTopic)).length === 2,
      30_000,
    );
    expect(
      (await groupMembers(URGENT_GROUP, urgentTopic)).every((m) => m.topics.join() === urgentTopic),
    ).toBe(true);
    // One message on every partition of the role's topic that waits for a file: the role's consumer in both
    // processes is busy, and kafkajs fetches again only when its last fetch is handled.
    const release = join(tmpdir(), `roles-release-${randomUUID()}`);
    await producer.send({
      topic,
      messages: Array.from({ length: PARTITIONS }, (_, partition) => ({
        partition,
        key: `held-${partition}`,
        value: JSON.stringify({ id: `held-${partition}`, hold: release }),
      })),
    });
    try {
      await waitUntil(
        'both processes are holding a message',
        async () =>
          (await count('held-%:started', 'instance-b')) > 0 &&
          (await count('held-%:started', 'instance-c')) > 0,
      );
      await send(['urgent-1', 'urgent-2'], urgentTopic);
      await waitUntil('the urgent messages handled', async () => (await count('urgent-%')) === 2);
      // Handled while every held message still waited.
      expect(await count('held-_')).toBe(0);
    } finally {
      writeFileSync(release, '');
    }
    await waitUntil('the held messages handled', async () => (await count('held-_')) === PARTITIONS);
    rmSync(release, { force: true });
  });
});
