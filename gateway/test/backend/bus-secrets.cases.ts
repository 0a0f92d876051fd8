import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { PROVIDER_API_KEY_HEADER, REFRESH_COOKIE, SEALED_PREFIX, SESSION_COOKIE, Topics } from '@irp/proto';
import { kafkaClientConfig } from '@irp/platform';
import { loadTestEnv, TEST_KAFKA_REQUEST_TIMEOUT_MS, waitUntil } from '@irp/platform/testing';
import { Kafka } from 'kafkajs';
import request from 'supertest';
import {
  basic,
  clientOf,
  cookiesSetBy,
  createStockWithProviderKey,
  runId,
  Session,
  sessionSetBy,
  SharedBackend,
  signIn,
  startTestGateway,
} from '../gateway-harness';

const RUN = runId();

interface Found {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: string;
  headers: string;
}

/**
 * Every message of every topic on the broker from its beginning up to its end as it is now (DLQs, replies
 * and internal topics included), as text: what anyone who can read the broker could read (issue 34).
 */
async function everyMessageOnTheBroker(): Promise<Found[]> {
  const kafka = new Kafka(
    kafkaClientConfig({
      brokers: loadTestEnv().KAFKA_BROKERS.split(','),
      service: 'bus-secrets-reader',
      instanceId: randomUUID().slice(0, 8),
      requestTimeoutMs: TEST_KAFKA_REQUEST_TIMEOUT_MS,
    }),
  );
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<string, bigint>();
  try {
    const topics = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
    for (const topic of topics)
      for (const p of await admin.fetchTopicOffsets(topic))
        if (BigInt(p.high) > BigInt(p.low)) ends.set(`${topic}/${p.partition}`, BigInt(p.high));
  } finally {
    await admin.disconnect();
  }
  const topics = [...new Set([...ends.keys()].map((k) => k.slice(0, k.lastIndexOf('/'))))];
  const found: Found[] = [];
  const read = new Map<string, bigint>();
  const consumer = kafka.consumer({ groupId: `bus-secrets-${randomUUID()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        found.push({
          topic,
          partition,
          offset: message.offset,
          key: message.key?.toString('utf8') ?? '',
          value: message.value?.toString('utf8') ?? '',
          headers: JSON.stringify(
            Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
          ),
        });
        read.set(`${topic}/${partition}`, BigInt(message.offset) + 1n);
      },
    });
    await waitUntil(
      'the reader at the end of every topic',
      () => [...ends].every(([tp, end]) => (read.get(tp) ?? 0n) >= end),
      120_000,
      100,
    );
  } finally {
    await consumer.disconnect();
  }
  return found;
}

/**
 * Secrets off the bus (issue 34): after sign-ins, refreshes, a user saved with a password, that user's own
 * password change and a provider key saved and counted with, every message the broker holds — requests,
 * replies, events, `.dlq` copies — is read from the beginning, and none holds a password, a session or
 * refresh token, or a provider key in clear. The passwords and keys are there, sealed.
 */
export function busSecretsCases(shared: SharedBackend) {
  describe('no password, token or provider key crosses the bus in clear', () => {
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    const sessions: Record<string, Session> = {};
    let client: ReturnType<typeof clientOf>;

    beforeAll(async () => {
      shared.backend();
      ({ gateway, http } = await startTestGateway());
      client = clientOf(http, sessions);
    }, 180_000);

    afterAll(async () => {
      await gateway?.close();
    });

    it('after sign-in, refresh, a password set and changed, and a provider key saved', async () => {
      const username = `bus-${RUN.toLowerCase()}`;
      const firstPassword = `Bus-First-${RUN}-77`;
      const secondPassword = `Bus-Second-${RUN}-88`;
      const providerKey = `bus-provider-key-${RUN.toLowerCase()}-us1`;
      const countedKey = `bus-counted-key-${RUN.toLowerCase()}-us1`;
      const tokens: string[] = [];
      const { get, post } = client;

      const login = await http.get('/api/login').set('Authorization', basic('admin', 'Admin!2026'));
      expect(login.status).toBe(200);
      const adminCookies = cookiesSetBy(login);
      tokens.push(adminCookies[SESSION_COOKIE], adminCookies[REFRESH_COOKIE]);
      // A refresh rotates both tokens: the new ones must not cross the bus either.
      const refreshed = await http
        .get('/api/admin/refreshtoken')
        .set('Cookie', `${REFRESH_COOKIE}=${adminCookies[REFRESH_COOKIE]}`);
      expect(refreshed.status).toBe(200);
      const rotated = cookiesSetBy(refreshed);
      tokens.push(rotated[SESSION_COOKIE], rotated[REFRESH_COOKIE]);
      sessions.admin = sessionSetBy(refreshed);

      const created = await post(
        '/api/users/new',
        { username, password: firstPassword, permissions: [] },
        'admin',
      );
      expect(created.status).toBe(200);
      sessions.user = await signIn(http, username, firstPassword);
      tokens.push(/=([^;]+)/.exec(sessions.user.cookie)![1]);
      const changed = await post(
        '/api/account/password',
        { currentPassword: firstPassword, newPassword: secondPassword },
        'user',
      );
      expect(changed.status).toBe(200);

      const stock = await createStockWithProviderKey(
        client,
        { ticker: `BS${RUN}`, companyName: 'Bus Secrets Ltd' },
        providerKey,
      );
      // A key typed and not saved is counted with from its header (the query refuses one).
      const counted = await get(
        `/api/EmailMarketingSubscriberCount?listId=demo-list&stockId=${stock.id}`,
        'admin',
      ).set(PROVIDER_API_KEY_HEADER, countedKey);
      expect(counted.status).toBe(200);

      const messages = await everyMessageOnTheBroker();
      const secrets = {
        'the admin password': 'Admin!2026',
        'a password set by an admin': firstPassword,
        "the user's new password": secondPassword,
        'a provider key saved': providerKey,
        'a provider key counted with': countedKey,
        ...Object.fromEntries(tokens.map((t, i) => [`session or refresh token ${i + 1}`, t])),
      };
      const leaks = Object.entries(secrets).flatMap(([what, secret]) =>
        messages
          .filter((m) => [m.key, m.value, m.headers].some((text) => text.includes(secret)))
          .map((m) => `${what} in ${m.topic}/${m.partition}@${m.offset}`),
      );
      expect(leaks).toEqual([]);

      // Not vacuous: the reader saw this run's sign-in, password change and key save, each sealed.
      const sealedOf = (topic: string, pick: (value: Record<string, unknown>) => unknown) =>
        messages
          .filter((m) => m.topic === topic)
          .map((m) => pick(JSON.parse(m.value) as Record<string, unknown>))
          .filter((v): v is string => typeof v === 'string');
      const signIns = messages.filter(
        (m) => m.topic === Topics.UsersAuthenticate && m.value.includes(`"username":"${username}"`),
      );
      expect(signIns).toHaveLength(1);
      expect((JSON.parse(signIns[0].value) as { password: string }).password.startsWith(SEALED_PREFIX)).toBe(
        true,
      );
      expect(sealedOf(Topics.UsersChangeOwnPassword, (v) => v.newPassword).length).toBeGreaterThanOrEqual(1);
      expect(
        sealedOf(Topics.UsersChangeOwnPassword, (v) => v.newPassword).every((p) =>
          p.startsWith(SEALED_PREFIX),
        ),
      ).toBe(true);
      const savedKeys = sealedOf(
        Topics.EmailMarketingSaveSettings,
        (v) => (v.settings as { apiKey?: string } | undefined)?.apiKey,
      ).filter((k) => k.startsWith(SEALED_PREFIX));
      expect(savedKeys.length).toBeGreaterThanOrEqual(1);
      const countedKeys = sealedOf(Topics.EmailMarketingSubscriberCount, (v) => v.apiKey).filter((k) =>
        k.startsWith(SEALED_PREFIX),
      );
      expect(countedKeys.length).toBeGreaterThanOrEqual(1);
    }, 300_000);
  });
}
