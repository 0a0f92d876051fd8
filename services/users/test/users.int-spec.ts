import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { dlqTopic, Header, SealContext, Topics } from '@irp/proto';
import { DEV_SEAL_KEYS, KafkaRequester, sealFor, securityAudit, tokenHash } from '@irp/platform';
import {
  captureLogs,
  createTestRequester,
  loggedBy,
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
import { UpsertUser } from '../src/users/upsert-user';
import { gatewaySide, newTokens, sealedPassword as sealed, Signed } from './gateway-side';

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

  const client = () => gatewaySide(requester);
  const signIn = (username: string, password: string) => client().signIn(username, password);
  const lookup = (signed: Signed | { sessionToken: string }) => client().lookup(signed);
  const refresh = (signed: Signed) => client().refresh(signed);

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
    await expect(signIn('alice', 'correct horse')).resolves.toBeDefined();
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
    const grant = await signIn('Alice', 'correct horse');
    expect(grant.user.username).toBe('alice');
    expect(grant.user.roles).toEqual(['Admin']);
    expect(grant.user.stockRoles[STOCK_A]).toEqual(['ReplyToComment', 'ViewConfig']);
    expect(new Date(grant.refresh.expiresAt).getTime()).toBeGreaterThan(
      new Date(grant.session.expiresAt).getTime(),
    );
    // The reply names when the tokens end, never a token (the gateway made them: issue 34).
    expect(Object.keys(grant.session)).toEqual(['expiresAt']);
    const [row] = await app
      .get(DataSource)
      .query(`SELECT token_hash FROM users.sessions ORDER BY created_at DESC LIMIT 1`);
    expect(row.token_hash).toBe(tokenHash(grant.sessionToken));
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    await expectAppError(signIn('alice', 'wrong'), 'UNAUTHENTICATED', 'Invalid username/password');
    await expectAppError(signIn('nobody', 'x'), 'UNAUTHENTICATED', 'Invalid username/password');
  });

  it('loads the session user for a live session token and refuses others', async () => {
    const grant = await signIn('alice', 'correct horse');
    expect(await lookup(grant)).toEqual(grant.user);
    await expectAppError(lookup({ sessionToken: 'not-a-real-token' }), 'UNAUTHENTICATED');
  });

  /** The session id of a session token (the id a user changing their own password or roles keeps). */
  async function sessionIdOf(sessionToken: string): Promise<string> {
    const [row] = await app
      .get(DataSource)
      .query(`SELECT id FROM users.sessions WHERE token_hash = $1`, [tokenHash(sessionToken)]);
    return row.id;
  }

  it('sees a role change at once in the session that made it', async () => {
    const grant = await signIn('alice', 'correct horse');
    await users.upsert(
      { username: 'alice', roles: ['RunReports'], stockRoles: {} },
      { exceptSessionId: await sessionIdOf(grant.sessionToken) },
    );
    const user = await lookup(grant);
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
    const live = (grant: Signed) => client().live(grant);
    const liveRefresh = (grant: Signed) =>
      refresh(grant).then(
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
    const logs = captureLogs([securityAudit]);
    await users.upsert(
      { username: 'bob', password: 'Bob!2026-two', roles: [], stockRoles: { [STOCK_A]: ['ViewConfig'] } },
      { exceptSessionId: await sessionIdOf(laptop.sessionToken) },
    );
    expect([await live(phone), await liveRefresh(phone), await live(laptop)]).toEqual([false, false, true]);
    logs.stop();
    // The structured security log says so (issue 34): the password changed, one session of bob's revoked.
    const events = loggedBy(logs, 'security-audit').filter((e) => e.username === 'bob');
    expect(events).toEqual([
      expect.objectContaining({ event: 'password.set-by-other', by: 'seed' }),
      expect.objectContaining({ event: 'sessions.revoked', count: 1, reason: 'password changed' }),
    ]);
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
    const first = await signIn('alice', 'correct horse');
    const second = await refresh(first);
    await expectAppError(lookup(first), 'UNAUTHENTICATED');
    await expect(lookup(second)).resolves.toMatchObject({ username: 'alice' });
    // Someone replays the first refresh token: the whole session is revoked.
    await expectAppError(refresh(first), 'UNAUTHENTICATED', /already used/);
    await expectAppError(lookup(second), 'UNAUTHENTICATED');
    await expectAppError(refresh(second), 'UNAUTHENTICATED');
  });

  it('logs out: the session and refresh tokens stop working', async () => {
    const grant = await signIn('alice', 'correct horse');
    await expect(
      requester.request(Topics.UsersLogout, {
        sessionHash: tokenHash(grant.sessionToken),
        refreshHash: tokenHash(grant.refreshToken),
      }),
    ).resolves.toEqual({ loggedOut: true });
    await expectAppError(lookup(grant), 'UNAUTHENTICATED');
    await expectAppError(refresh(grant), 'UNAUTHENTICATED');
  });

  it('refuses to produce a request that does not match its schema', async () => {
    await expectAppError(
      requester.request(Topics.UsersAuthenticate, {
        username: '',
        password: sealed('x'),
        tokens: newTokens().hashes,
      }),
      'BAD_REQUEST',
      /username/,
    );
    // A password in clear never reaches the bus (issue 34): the contract takes only a sealed one.
    await expectAppError(
      requester.request(Topics.UsersAuthenticate, {
        username: 'alice',
        password: 'correct horse',
        tokens: newTokens().hashes,
      }),
      'BAD_REQUEST',
      /sealed for its service/,
    );
  });

  it('refuses a password sealed for another key, and a sealed provider key offered as a password', async () => {
    const other = sealFor(DEV_SEAL_KEYS['email-marketing'].publicKey, SealContext.Password, 'correct horse');
    const asKey = sealFor(DEV_SEAL_KEYS.users.publicKey, SealContext.ProviderKey, 'correct horse');
    for (const password of [other, asKey])
      await expectAppError(
        requester.request(Topics.UsersAuthenticate, {
          username: 'alice',
          password,
          tokens: newTokens().hashes,
        }),
        'BAD_REQUEST',
        /not sealed for the users service/,
      );
  });

  it('ends a staff session after 30 minutes idle and 12 hours from sign-in; a client keeps theirs', async () => {
    const db = app.get(DataSource);
    const age = (signed: Signed, column: 'last_seen_at' | 'created_at', minutes: number) =>
      db.query(
        `UPDATE users.sessions SET ${column} = now() - make_interval(mins => $2) WHERE token_hash = $1`,
        [tokenHash(signed.sessionToken), minutes],
      );
    await users.upsert({
      username: 'carol',
      password: 'Carol!2026-one',
      roles: [],
      stockRoles: { [STOCK_A]: ['ViewConfig'] },
    });
    const staff = await signIn('alice', 'correct horse');
    const client = await signIn('carol', 'Carol!2026-one');
    // Staff sessions end 12 hours after sign-in; clients' after SESSION_MAX_AGE_SECONDS (30 days).
    const [{ hours }] = await db.query(
      `SELECT extract(epoch FROM absolute_expires_at - created_at) / 3600 AS hours FROM users.sessions WHERE token_hash = $1`,
      [tokenHash(staff.sessionToken)],
    );
    expect(Math.round(Number(hours))).toBe(12);
    expect(new Date(client.refresh.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    await age(staff, 'last_seen_at', 29);
    await expect(lookup(staff)).resolves.toMatchObject({ username: 'alice' });
    await age(staff, 'last_seen_at', 31);
    await age(client, 'last_seen_at', 31 * 24 * 60);
    await expectAppError(lookup(staff), 'UNAUTHENTICATED', /without activity/);
    await expectAppError(refresh(staff), 'UNAUTHENTICATED');
    await expect(lookup(client)).resolves.toMatchObject({ username: 'carol' });

    // Past 12 hours, however recently seen, and even when refreshed just before.
    const long = await signIn('alice', 'correct horse');
    await age(long, 'created_at', 12 * 60 + 1);
    await expectAppError(refresh(long), 'UNAUTHENTICATED', /maximum length/);
    await expectAppError(lookup(long), 'UNAUTHENTICATED', /maximum length/);
    // A client made staff mid-session is held to the staff limits at once.
    await age(client, 'created_at', 13 * 60);
    await users.upsert(
      { username: 'carol', roles: ['RunReports'], stockRoles: { [STOCK_A]: ['ViewConfig'] } },
      { exceptSessionId: await sessionIdOf(client.sessionToken) },
    );
    await expectAppError(lookup(client), 'UNAUTHENTICATED', /maximum length/);
  });

  it('sends an invalid incoming message to the .dlq topic with the reason', async () => {
    const producer = await rawProducer();
    try {
      await producer.send({
        topic: Topics.UsersAuthenticate,
        messages: [
          {
            key: 'bad',
            value: JSON.stringify({ user: 'x', password: 'hunter2-in-clear' }),
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
    // A secret in the refused message is not copied (issue 34): left out, and named.
    expect(dead.value).toEqual({ user: 'x', password: '[redacted]' });
    expect(dead.headers[Header.DlqRedacted]).toBe('password');
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
    const fixtureGrant = await signIn('fixture-user', 'Fixture!2026');
    expect(fixtureGrant.user.stockRoles).toEqual({ [STOCK_A]: ['ViewConfig'] });
    writeFileSync(fixture, JSON.stringify([{ username: 'x', roles: [] }]));
    expect(() => readUsersFixture(fixture)).toThrow(/0\.password: Required/);
    const grant = await signIn('client', 'Client!2026');
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
        // A production config passkeys can work with (the config check would refuse before the seed's own).
        WEBAUTHN_RP_ID: 'ir.example.com',
        WEBAUTHN_ORIGINS: 'https://ir.example.com',
      }),
    ).rejects.toThrow(/Refusing to seed/);
  });
});
