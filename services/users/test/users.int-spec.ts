import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { dlqTopic, Header, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  expectAppError,
  rawProducer,
  serviceTestEnv,
  TopicProbe,
  waitUntil,
} from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { startUsersService } from '../src/main';
import { readUsersFixture, seedDemoUsers } from '../src/seed';
import { sha256 } from '../src/credentials/secrets';
import { UpsertUser } from '../src/users/upsert-user';

const USER_TOPICS = [
  Topics.UsersPing,
  Topics.UsersAuthenticate,
  Topics.UsersSession,
  Topics.UsersRefresh,
  Topics.UsersLogout,
] as const;
const STOCK_A = '11111111-1111-4111-8111-111111111111';

describe('users service on the real broker and database', () => {
  let app: INestApplication;
  let requester: KafkaRequester;
  let probe: TopicProbe;
  let users: UpsertUser;
  let healthUrl: string;

  beforeAll(async () => {
    await dropSchema('users');
    probe = await TopicProbe.listen([Topics.UserUpserted, dlqTopic(Topics.UsersAuthenticate)]);
    app = await startUsersService(serviceTestEnv('users'));
    users = app.get(UpsertUser);
    requester = await createTestRequester(USER_TOPICS, 8000);
    const address = app.getHttpServer().address();
    healthUrl = `http://127.0.0.1:${address.port}`;
    await users.upsert({
      username: 'alice',
      password: 'correct horse',
      roles: ['Admin'],
      stockRoles: { [STOCK_A]: ['ViewConfig', 'ReplyToComment'] },
    });
  });

  afterAll(async () => {
    await requester?.close();
    await probe?.close();
    await app?.close();
  });

  it('ran its committed migrations into its own schema', async () => {
    const rows = await app.get(DataSource).query(`SELECT name FROM users.migrations`);
    expect(rows.map((r: { name: string }) => r.name)).toContain('CreateUsers1763700000000');
  });

  it('answers a ping through Kafka', async () => {
    const reply = await requester.request(Topics.UsersPing, {});
    expect(reply.service).toBe('users');
  });

  it('stores passwords as argon2id hashes only', async () => {
    const [row] = await app
      .get(DataSource)
      .query(`SELECT password_hash FROM users.users WHERE username = 'alice'`);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('correct horse');
  });

  it('publishes user.upserted through the outbox, keyed by user id, without the password hash', async () => {
    const msg = await probe.waitFor(
      (m) => m.topic === Topics.UserUpserted && (m.value as { username: string }).username === 'alice',
    );
    const event = msg.value as Record<string, unknown>;
    expect(msg.key).toBe(event.id);
    expect(event.roles).toEqual(['Admin']);
    expect(event.stockRoles).toEqual({ [STOCK_A]: ['ReplyToComment', 'ViewConfig'] });
    expect(JSON.stringify(event)).not.toContain('argon2');
    // The relay marks a row published just after the broker accepts it, so the event can arrive first.
    const pendingRows = async () =>
      (
        await app
          .get(DataSource)
          .query(`SELECT count(*)::int AS pending FROM users.outbox WHERE published_at IS NULL`)
      )[0].pending as number;
    await waitUntil('the outbox row marked published', async () => (await pendingRows()) === 0, 5_000);
    expect(await pendingRows()).toBe(0);
  });

  it('treats usernames as unique regardless of case', async () => {
    const again = await users.upsert({ username: 'ALICE', roles: ['Admin', 'EditUsers'], stockRoles: {} });
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM users.users WHERE lower(username) = 'alice'`);
    expect(n).toBe(1);
    expect(again.roles).toEqual(['Admin', 'EditUsers']);
    // A blank password leaves the password unchanged.
    await expect(
      requester.request(Topics.UsersAuthenticate, { username: 'alice', password: 'correct horse' }),
    ).resolves.toBeDefined();
    await users.upsert({
      username: 'alice',
      roles: ['Admin'],
      stockRoles: { [STOCK_A]: ['ViewConfig', 'ReplyToComment'] },
    });
  });

  it('rejects role names that are not in the spec', async () => {
    await expectAppError(
      users.upsert({ username: 'bob', password: 'pw123456', roles: ['Root'], stockRoles: {} }),
      'BAD_REQUEST',
      /Unknown role: Root/,
    );
  });

  it('authenticates the right password and returns the session user with roles and stockRoles', async () => {
    const grant = await requester.request(Topics.UsersAuthenticate, {
      username: 'Alice',
      password: 'correct horse',
    });
    expect(grant.user.username).toBe('alice');
    expect(grant.user.roles).toEqual(['Admin']);
    expect(grant.user.stockRoles[STOCK_A]).toEqual(['ReplyToComment', 'ViewConfig']);
    expect(grant.session.token).toHaveLength(43);
    expect(grant.refresh.token).not.toBe(grant.session.token);
    expect(new Date(grant.refresh.expiresAt).getTime()).toBeGreaterThan(
      new Date(grant.session.expiresAt).getTime(),
    );
    const [row] = await app
      .get(DataSource)
      .query(`SELECT token_hash FROM users.sessions ORDER BY created_at DESC LIMIT 1`);
    expect(row.token_hash).not.toBe(grant.session.token);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    await expectAppError(
      requester.request(Topics.UsersAuthenticate, { username: 'alice', password: 'wrong' }),
      'UNAUTHENTICATED',
      'Invalid username/password',
    );
    await expectAppError(
      requester.request(Topics.UsersAuthenticate, { username: 'nobody', password: 'x' }),
      'UNAUTHENTICATED',
      'Invalid username/password',
    );
  });

  it('loads the session user for a live session token and refuses others', async () => {
    const grant = await requester.request(Topics.UsersAuthenticate, {
      username: 'alice',
      password: 'correct horse',
    });
    const user = await requester.request(Topics.UsersSession, { sessionToken: grant.session.token });
    expect(user).toEqual(grant.user);
    await expectAppError(
      requester.request(Topics.UsersSession, { sessionToken: 'not-a-real-token' }),
      'UNAUTHENTICATED',
    );
  });

  /** The session id of a session token (the id a user changing their own password or roles keeps). */
  async function sessionIdOf(sessionToken: string): Promise<string> {
    const [row] = await app
      .get(DataSource)
      .query(`SELECT id FROM users.sessions WHERE token_hash = $1`, [sha256(sessionToken)]);
    return row.id;
  }

  const signIn = (username: string, password: string) =>
    requester.request(Topics.UsersAuthenticate, { username, password });

  it('sees a role change at once in the session that made it', async () => {
    const grant = await requester.request(Topics.UsersAuthenticate, {
      username: 'alice',
      password: 'correct horse',
    });
    await users.upsert(
      { username: 'alice', roles: ['RunReports'], stockRoles: {} },
      { exceptSessionId: await sessionIdOf(grant.session.token) },
    );
    const user = await requester.request(Topics.UsersSession, { sessionToken: grant.session.token });
    expect(user.roles).toEqual(['RunReports']);
    expect(user.stockRoles).toEqual({});
    await users.upsert({
      username: 'alice',
      roles: ['Admin'],
      stockRoles: { [STOCK_A]: ['ViewConfig', 'ReplyToComment'] },
    });
  });

  it("ends a user's other sessions when their password or roles change, and none when nothing changed", async () => {
    await users.upsert({
      username: 'bob',
      password: 'Bob!2026-one',
      roles: [],
      stockRoles: { [STOCK_A]: ['ViewConfig'] },
    });
    const live = async (grant: { session: { token: string } }) =>
      requester.request(Topics.UsersSession, { sessionToken: grant.session.token }).then(
        () => true,
        () => false,
      );
    const liveRefresh = (grant: { refresh: { token: string } }) =>
      requester.request(Topics.UsersRefresh, { refreshToken: grant.refresh.token }).then(
        () => true,
        () => false,
      );
    const [phone, laptop] = [await signIn('bob', 'Bob!2026-one'), await signIn('bob', 'Bob!2026-one')];
    const aliceGrant = await signIn('alice', 'correct horse');

    // The same password and roles again (what the seed does on every run): nothing ends.
    await users.upsert({
      username: 'bob',
      password: 'Bob!2026-one',
      roles: [],
      stockRoles: { [STOCK_A]: ['ViewConfig'] },
    });
    expect([await live(phone), await live(laptop)]).toEqual([true, true]);

    // Bob changes his password on his laptop: the phone's session (and its refresh token) ends, the laptop's stays.
    await users.upsert(
      { username: 'bob', password: 'Bob!2026-two', roles: [], stockRoles: { [STOCK_A]: ['ViewConfig'] } },
      { exceptSessionId: await sessionIdOf(laptop.session.token) },
    );
    expect([await live(phone), await liveRefresh(phone), await live(laptop)]).toEqual([false, false, true]);
    await expectAppError(signIn('bob', 'Bob!2026-one'), 'UNAUTHENTICATED');

    // An admin changes Bob's per-stock roles: every session of Bob ends, other users' do not.
    const fresh = await signIn('bob', 'Bob!2026-two');
    await users.upsert({
      username: 'bob',
      roles: [],
      stockRoles: { [STOCK_A]: ['ViewConfig', 'Invoicing'] },
    });
    expect([await live(laptop), await live(fresh), await live(aliceGrant)]).toEqual([false, false, true]);
    // And a global role change likewise.
    const again = await signIn('bob', 'Bob!2026-two');
    await users.upsert({
      username: 'bob',
      roles: ['RunReports'],
      stockRoles: { [STOCK_A]: ['ViewConfig', 'Invoicing'] },
    });
    expect(await live(again)).toBe(false);
  });

  it('rotates tokens on refresh and revokes the session when an old refresh token is reused', async () => {
    const first = await requester.request(Topics.UsersAuthenticate, {
      username: 'alice',
      password: 'correct horse',
    });
    const second = await requester.request(Topics.UsersRefresh, { refreshToken: first.refresh.token });
    expect(second.session.token).not.toBe(first.session.token);
    expect(second.refresh.token).not.toBe(first.refresh.token);
    await expectAppError(
      requester.request(Topics.UsersSession, { sessionToken: first.session.token }),
      'UNAUTHENTICATED',
    );
    await expect(
      requester.request(Topics.UsersSession, { sessionToken: second.session.token }),
    ).resolves.toMatchObject({ username: 'alice' });
    // Someone replays the first refresh token: the whole session is revoked.
    await expectAppError(
      requester.request(Topics.UsersRefresh, { refreshToken: first.refresh.token }),
      'UNAUTHENTICATED',
      /already used/,
    );
    await expectAppError(
      requester.request(Topics.UsersSession, { sessionToken: second.session.token }),
      'UNAUTHENTICATED',
    );
    await expectAppError(
      requester.request(Topics.UsersRefresh, { refreshToken: second.refresh.token }),
      'UNAUTHENTICATED',
    );
  });

  it('logs out: the session and refresh tokens stop working', async () => {
    const grant = await requester.request(Topics.UsersAuthenticate, {
      username: 'alice',
      password: 'correct horse',
    });
    await expect(
      requester.request(Topics.UsersLogout, {
        sessionToken: grant.session.token,
        refreshToken: grant.refresh.token,
      }),
    ).resolves.toEqual({ loggedOut: true });
    await expectAppError(
      requester.request(Topics.UsersSession, { sessionToken: grant.session.token }),
      'UNAUTHENTICATED',
    );
    await expectAppError(
      requester.request(Topics.UsersRefresh, { refreshToken: grant.refresh.token }),
      'UNAUTHENTICATED',
    );
  });

  it('refuses to produce a request that does not match its schema', async () => {
    await expectAppError(
      requester.request(Topics.UsersAuthenticate, { username: '', password: 'x' }),
      'BAD_REQUEST',
      /username/,
    );
  });

  it('sends an invalid incoming message to the .dlq topic with the reason', async () => {
    const producer = await rawProducer();
    try {
      await producer.send({
        topic: Topics.UsersAuthenticate,
        messages: [
          {
            key: 'bad',
            value: JSON.stringify({ user: 'x' }),
            headers: { [Header.CorrelationId]: 'corr-dlq-1' },
          },
        ],
      });
    } finally {
      await producer.disconnect();
    }
    const dead = await probe.waitFor(
      (m) => m.topic === dlqTopic(Topics.UsersAuthenticate) && m.key === 'bad',
    );
    expect(dead.headers[Header.DlqReason]).toMatch(/username/);
    expect(dead.headers[Header.DlqSourceTopic]).toBe(Topics.UsersAuthenticate);
    expect(dead.headers[Header.CorrelationId]).toBe('corr-dlq-1');
    expect(dead.value).toEqual({ user: 'x' });
  });

  it('serves /health and /metrics', async () => {
    const health = await fetch(`${healthUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      service: 'users',
      roles: ['api'],
      checks: { database: { status: 'up' }, kafka: { status: 'up' } },
    });
    const metrics = await (await fetch(`${healthUrl}/metrics`)).text();
    expect(metrics).toContain('irp_kafka_handled_messages_total{topic="users.authenticate",outcome="ok"');
    // The outbox pruning job runs on one instance; this one is the only one, so it holds the job.
    expect(metrics).toMatch(/irp_singleton_job_holder\{[^}]*job="outbox-prune:users"[^}]*\} 1/);
    expect(metrics).toContain('irp_dlq_messages_total');
  });

  it('seeds the demo users idempotently, plus the users of a fixture file, and refuses to seed in production', async () => {
    await seedDemoUsers({ ...process.env, SEED_DEMO_USERS: 'true' });
    const fixture = join(mkdtempSync(join(tmpdir(), 'irp-users-')), 'users.json');
    writeFileSync(
      fixture,
      JSON.stringify([
        { username: 'fixture-user', password: 'Fixture!2026', stockRoles: { [STOCK_A]: ['ViewConfig'] } },
      ]),
    );
    await seedDemoUsers({ ...process.env, SEED_DEMO_USERS: 'true' }, readUsersFixture(fixture));
    const fixtureGrant = await requester.request(Topics.UsersAuthenticate, {
      username: 'fixture-user',
      password: 'Fixture!2026',
    });
    expect(fixtureGrant.user.stockRoles).toEqual({ [STOCK_A]: ['ViewConfig'] });
    writeFileSync(fixture, JSON.stringify([{ username: 'x', roles: [] }]));
    expect(() => readUsersFixture(fixture)).toThrow(/0\.password: Required/);
    const grant = await requester.request(Topics.UsersAuthenticate, {
      username: 'client',
      password: 'Client!2026',
    });
    expect(grant.user.roles).toEqual([]);
    expect(Object.keys(grant.user.stockRoles)).toHaveLength(2);
    // Not without the explicit flag (NODE_ENV alone is not enough), and never in production.
    await expect(seedDemoUsers({ ...process.env, SEED_DEMO_USERS: undefined })).rejects.toThrow(
      'Refusing to seed demo users (accounts with published passwords) without SEED_DEMO_USERS=true',
    );
    await expect(
      seedDemoUsers({
        ...process.env,
        SEED_DEMO_USERS: 'true',
        NODE_ENV: 'production',
        ACTOR_SIGNING_SECRET: 'p'.repeat(40),
      }),
    ).rejects.toThrow(/Refusing to seed/);
  });
});
