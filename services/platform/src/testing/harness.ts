import dotenv from 'dotenv';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestOf, RequestTopic } from '@irp/proto';
import { signFixtureActor } from '@irp/proto/testing';
import { Consumer, EachMessagePayload, Kafka, Producer } from 'kafkajs';
import { Client } from 'pg';
import { bootstrapDatabase } from '../database-bootstrap';
import { databaseTenants, tenantDatabaseUrl } from '../database-roles';
import { DEFAULT_FETCH_MAX_WAIT_MS, kafkaClientConfig, keepConsuming } from '../kafka';
import { repoRoot, serviceManifest } from '../manifest';
import { KafkaRequester } from '../requester';
import { patientDeadline, waitedFor } from './patience';

/**
 * The one test harness: services under test run against the real broker and database that
 * `deploy/local/infra.mjs` started (KAFKA_BROKERS / DATABASE_URL, or `.local/test.env` when run by hand).
 */
export function loadTestEnv(): { KAFKA_BROKERS: string; DATABASE_URL: string } {
  if (!process.env.KAFKA_BROKERS || !process.env.DATABASE_URL) {
    const file = join(repoRoot(), '.local', 'test.env');
    if (!existsSync(file)) {
      throw new Error(
        'No KAFKA_BROKERS/DATABASE_URL and no .local/test.env: run `node deploy/local/infra.mjs up --env .local/test.env --database irportal_test` or `make test`.',
      );
    }
    // dotenv's parser, as deploy/local/env-file.mjs reads the same file.
    for (const [key, value] of Object.entries(dotenv.parse(readFileSync(file, 'utf8'))))
      process.env[key] ??= value;
  }
  process.env.NODE_ENV ??= 'test';
  process.env.LOG_LEVEL ??= 'warn';
  return { KAFKA_BROKERS: process.env.KAFKA_BROKERS!, DATABASE_URL: process.env.DATABASE_URL! };
}

const brokers = () => loadTestEnv().KAFKA_BROKERS.split(',');

/** Test clients' kafkajs request limit (and metadata lock): the broker of a loaded machine may take long. */
export const TEST_KAFKA_REQUEST_TIMEOUT_MS = 120_000;

/**
 * A requester whose requests wait for their reply until the later of the time they name and the end of the
 * test's own time (patience.ts): a busy service answers late, and late is not a failure.
 */
class PatientRequester extends KafkaRequester {
  constructor(
    settings: ConstructorParameters<typeof KafkaRequester>[0],
    private readonly leastMs: number,
  ) {
    super(settings);
  }

  override request<T extends RequestTopic>(topic: T, payload: RequestOf<T>, timeoutMs = this.leastMs) {
    return super.request(topic, payload, Math.max(timeoutMs, patientDeadline(timeoutMs) - Date.now()));
  }
}

/**
 * A test's requester (PatientRequester). `patient: false` gives one whose requests give up after the time
 * they name, for a test that asks again until one is answered (a reply lost while the broker came back).
 */
export async function createTestRequester(
  topics: readonly RequestTopic[],
  timeoutMs = 5000,
  {
    patient = true,
    actorSecret,
  }: {
    patient?: boolean;
    /** The ACTOR_SIGNING_SECRET of the services asked, when not the tests' own (a production-like start). */
    actorSecret?: string;
  } = {},
): Promise<KafkaRequester> {
  const settings = {
    brokers: brokers(),
    service: `test-${randomUUID().slice(0, 8)}`,
    instanceId: '1',
    topics,
    timeoutMs,
    requestTimeoutMs: TEST_KAFKA_REQUEST_TIMEOUT_MS,
    // A fixture actor signed for each request, as the gateway signs a session's.
    signActor: <P>(topic: RequestTopic, payload: P) => signFixtureActor(topic, payload, actorSecret),
  };
  const requester = patient ? new PatientRequester(settings, timeoutMs) : new KafkaRequester(settings);
  await requester.connect(Math.max(30_000, patientDeadline(30_000) - Date.now()));
  return requester;
}

export interface ReceivedMessage {
  topic: string;
  key: string | null;
  value: unknown;
  headers: Record<string, string>;
  /** Where it was read from: with `topicEnds`, what shows a probe has read everything written so far. */
  partition: number;
  offset: string;
}

/** Listens on topics from now on and lets a test wait for a message it expects. */
export class TopicProbe {
  readonly received: ReceivedMessage[] = [];
  private waiters: Array<() => void> = [];

  private constructor(private readonly consumer: Consumer) {}

  static async listen(topics: string[]): Promise<TopicProbe> {
    const kafka = new Kafka(
      kafkaClientConfig({
        brokers: brokers(),
        service: 'probe',
        instanceId: randomUUID().slice(0, 8),
        requestTimeoutMs: TEST_KAFKA_REQUEST_TIMEOUT_MS,
      }),
    );
    const groupId = `probe-${randomUUID()}`;
    const consumer = kafka.consumer({
      groupId,
      // As the services' (kafka.ts): a message ends the fetch at once; an idle probe costs a fetch per wait.
      maxWaitTimeInMs: DEFAULT_FETCH_MAX_WAIT_MS,
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
    });
    const probe = new TopicProbe(consumer);
    // "From now on" is the topics' ends as they are before the probe joins: a new group starts at the end
    // the broker has when it first fetches, which is after the join, and a message written in between (a
    // request sent right after listen() on a busy machine) would be missed. The first join seeks there.
    const admin = kafka.admin();
    await admin.connect();
    const startAt = new Map<string, string>();
    try {
      for (const topic of topics)
        for (const p of await admin.fetchTopicOffsets(topic)) startAt.set(`${topic}/${p.partition}`, p.high);
    } finally {
      await admin.disconnect();
    }
    const joined = new Promise<void>((resolve) => {
      let first = true;
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        if (first) {
          first = false;
          for (const [topic, partitions] of Object.entries(payload.memberAssignment))
            for (const partition of partitions) {
              const offset = startAt.get(`${topic}/${partition}`);
              if (offset !== undefined) consumer.seek({ topic, partition, offset });
            }
        }
        resolve();
      });
    });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: false });
    // Every message's offset committed at once: a probe that rejoins after a broker restart resumes where it
    // was (with nothing committed, a rejoin starts at the newest message and skips what came meanwhile).
    const run = () => consumer.run({ autoCommitThreshold: 1, eachMessage: async (p) => probe.push(p) });
    // A broker slow to come back from a restart (seen at 17 s on a busy machine) can make kafkajs give up on
    // the group coordinator and stop the consumer for good: the probe runs it again until it is closed.
    keepConsuming(consumer, { group: groupId, retryMs: 1000, run, closing: () => probe.closing });
    await run();
    await joined;
    return probe;
  }

  private closing = false;

  /** topic/partition/offset of every message received: one read again after a rejoin is kept once. */
  private readonly seen = new Set<string>();

  private push({ topic, partition, message }: EachMessagePayload) {
    const at = `${topic}/${partition}/${message.offset}`;
    if (this.seen.has(at)) return;
    this.seen.add(at);
    const text = message.value?.toString('utf8') ?? 'null';
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      /* keep raw text */
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = v?.toString() ?? '';
    this.received.push({
      topic,
      key: message.key?.toString() ?? null,
      value,
      headers,
      partition,
      offset: message.offset,
    });
    for (const w of this.waiters.splice(0)) w();
  }

  async waitFor(predicate: (m: ReceivedMessage) => boolean, timeoutMs = 10_000): Promise<ReceivedMessage> {
    const started = Date.now();
    const deadline = patientDeadline(timeoutMs);
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `expected message not received ${waitedFor(started)}; got ${JSON.stringify(this.received).slice(0, 2000)}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.consumer.disconnect();
  }
}

/** A raw producer, for tests that send what a well-behaved client never would. */
export async function rawProducer(): Promise<Producer> {
  const kafka = new Kafka(
    kafkaClientConfig({
      brokers: brokers(),
      service: 'raw',
      instanceId: randomUUID().slice(0, 8),
      requestTimeoutMs: TEST_KAFKA_REQUEST_TIMEOUT_MS,
    }),
  );
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  return producer;
}

/** A tenant of the database (a manifest service, or `gateway`) by name; undefined for a test fixture. */
const tenantNamed = (name: string) => databaseTenants(serviceManifest()).find((t) => t.name === name);

/**
 * The DATABASE_URL a service (or the gateway) under test connects with: its own role's (docs/adr/0011),
 * which scripts/test.mjs made with the test database. A test fixture's service, no tenant, gets the
 * test's own (admin) URL and makes its schema itself.
 */
export function testDatabaseUrl(name?: string): string {
  const { DATABASE_URL } = loadTestEnv();
  const tenant = name ? tenantNamed(name) : undefined;
  return tenant ? tenantDatabaseUrl(DATABASE_URL, tenant.schema) : DATABASE_URL;
}

/**
 * The environment a service under test starts with: the test broker and database (loadTestEnv; `service`
 * named, as that service's role), a random health port, and short Kafka session timeouts so a stopped
 * instance leaves its group quickly.
 */
export function serviceTestEnv(service?: string): NodeJS.ProcessEnv {
  loadTestEnv();
  return {
    ...process.env,
    DATABASE_URL: testDatabaseUrl(service),
    HEALTH_PORT: '0',
    // Every port a role serves beyond health (the bounce listener's): any free one, as tests run side by side.
    ...Object.fromEntries(serviceManifest().flatMap((s) => (s.listeners ?? []).map((l) => [l.portEnv, '0']))),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
  };
}

/**
 * Drops a service's schema in the test database, so its migrations and seed start from nothing: a tenant's
 * is made again at once, empty and owned by its role (the bootstrap), as its service cannot make it.
 */
export async function dropSchema(schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  const { DATABASE_URL } = loadTestEnv();
  const pg = new Client({ connectionString: DATABASE_URL });
  await pg.connect();
  try {
    await pg.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await pg.end();
  }
  if (databaseTenants(serviceManifest()).some((t) => t.schema === schema))
    await bootstrapDatabase(DATABASE_URL, [{ schema, url: tenantDatabaseUrl(DATABASE_URL, schema) }]);
}

/**
 * Waits until `predicate` holds, checking every `everyMs`; fails naming `what` at the later of `timeoutMs`
 * and the end of the test's own time (patience.ts).
 */
export async function waitUntil(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<void> {
  const started = Date.now();
  const deadline = patientDeadline(timeoutMs);
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`${what}: not ${waitedFor(started)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
