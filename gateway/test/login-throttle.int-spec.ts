import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { securityAudit } from '@irp/platform';
import {
  captureLogs,
  loadTestEnv,
  loggedBy,
  runServiceSeed,
  ServiceProcess,
  startServiceProcess,
} from '@irp/platform/testing';
import { CSRF_HEADER } from '@irp/proto';
import request from 'supertest';
import { TOO_MANY_WRONG_PASSWORDS } from '../src/auth/login-throttler.guard';
import { basic, connectTestDatabase, seedTestUsers, signIn, startTestGateway } from './gateway-harness';

jest.setTimeout(300_000);

const RUN = Date.now().toString(36).slice(-6);
const PASSWORD = 'LoginThrottle!2026';
const PER_USERNAME = 3;
const PER_ADDRESS = 6;
/** The one proxy the gateways trust; requests from other loopback addresses are clients themselves. */
const PROXY = '127.0.0.1';

interface Answer {
  status: number;
  retryAfter?: string;
  message?: string;
}

/**
 * GET /api/login from a chosen local address (127.0.0.2 and up are loopback too on Linux), with an
 * X-Forwarded-For when given: how a proxy, or a client pretending to be one, reaches the gateway.
 */
function signInFrom(
  gateway: INestApplication,
  username: string,
  password: string,
  from: { local?: string; forwardedFor?: string } = {},
): Promise<Answer> {
  const { port } = (gateway.getHttpServer() as { address(): AddressInfo }).address();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/login',
        localAddress: from.local ?? PROXY,
        headers: {
          authorization: basic(username, password),
          ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            message: (JSON.parse(text || '{}') as { errorMessage?: string }).errorMessage,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 18: login throttling counted every sign-in (an office behind one address got 429 after ten good
 * sign-ins a minute), per process. Now failures alone count, per username and per address separately, in
 * PostgreSQL shared by every gateway instance, with a hold that doubles with each further failure; and
 * X-Forwarded-For names the client only when it comes from a proxy of TRUST_PROXY. Two gateway apps on
 * the real database and broker, the real users service behind them.
 */
describe('login throttling: failures only, per username and address, shared by gateway instances', () => {
  let users: ServiceProcess | undefined;
  let one: INestApplication;
  let two: INestApplication;
  const good = `lt-good-${RUN}`;
  const victim = `lt-victim-${RUN}`;
  const changer = `lt-changer-${RUN}`;

  beforeAll(async () => {
    loadTestEnv();
    users = await startServiceProcess('users');
    await runServiceSeed('users');
    await seedTestUsers(PASSWORD, [
      { username: good, stockRoles: {} },
      { username: victim, stockRoles: {} },
      { username: changer, stockRoles: {} },
    ]);
    const env = {
      LOGIN_THROTTLE_LIMIT: String(PER_USERNAME),
      LOGIN_THROTTLE_ADDRESS_LIMIT: String(PER_ADDRESS),
      LOGIN_THROTTLE_TTL_MS: '600000',
      // Holds of 3 s, then 6 s: long enough that the attempt right after a failure meets the hold on a busy
      // machine, short enough to wait out.
      LOGIN_THROTTLE_FIRST_DELAY_MS: '3000',
      TRUST_PROXY: PROXY,
    };
    [{ gateway: one }, { gateway: two }] = await Promise.all([startTestGateway(env), startTestGateway(env)]);
    // The addresses below are the same each run: counts of an earlier run within the window are dropped.
    const db = await connectTestDatabase();
    await db.query('DELETE FROM gateway.rate_limits').finally(() => db.end());
  });

  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await users?.stop();
  });

  it('never throttles successful sign-ins, however many from one address', async () => {
    for (let i = 0; i < 4 * PER_USERNAME + PER_ADDRESS; i++) {
      const res = await signInFrom(i % 2 ? one : two, good, PASSWORD, { forwardedFor: '203.0.113.10' });
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
    }
  });

  it('holds a username after its failures on either instance, for a doubling delay; success clears it', async () => {
    // Each attempt from another address: only the username's count can stop them.
    const from = (n: number) => ({ forwardedFor: `198.51.100.${n}` });
    for (let n = 1; n <= PER_USERNAME; n++)
      expect((await signInFrom(n % 2 ? one : two, victim, 'wrong', from(n))).status).toBe(401);
    // Held on the other instance too, even with the right password; the first hold is 3 s.
    const held = await signInFrom(two, victim, PASSWORD, from(50));
    expect(held).toEqual({
      status: 429,
      retryAfter: '3',
      message: 'Too many failed sign-in attempts. Please wait a while and try again.',
    });
    await sleep(Number(held.retryAfter) * 1000 + 100);
    expect((await signInFrom(one, victim, 'wrong', from(51))).status).toBe(401);
    // The next failure past the limit doubles the hold.
    const doubled = await signInFrom(one, victim, PASSWORD, from(52));
    expect(doubled).toMatchObject({ status: 429, retryAfter: '6' });
    await sleep(Number(doubled.retryAfter) * 1000 + 100);
    expect((await signInFrom(two, victim, PASSWORD, from(53))).status).toBe(200);
    // The success cleared the username's failures: one more mistake is a plain 401, not a hold.
    expect((await signInFrom(one, victim, 'wrong', from(54))).status).toBe(401);
    expect((await signInFrom(two, victim, PASSWORD, from(55))).status).toBe(200);
  });

  it('lets no burst of concurrent guesses past the limit: each is counted before its password is checked', async () => {
    // Twelve wrong passwords for one username at once, from twelve addresses, through both instances: only
    // PER_USERNAME of them may have their password checked (401); the rest are refused unchecked (429).
    const target = `lt-burst-${RUN}`;
    const logs = captureLogs([securityAudit]);
    let answers: Answer[];
    try {
      answers = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          signInFrom(n % 2 ? one : two, target, 'wrong', { forwardedFor: `198.51.100.${120 + n}` }),
        ),
      );
    } finally {
      logs.stop();
    }
    // Each is a security event of its own (issue 34: the structured audit log), with the username and address.
    const events = loggedBy(logs, 'security-audit').filter((e) => e.username === target);
    expect(events.filter((e) => e.event === 'sign-in.failed')).toHaveLength(PER_USERNAME);
    expect(events.filter((e) => e.event === 'sign-in.held')).toHaveLength(12 - PER_USERNAME);
    expect(events.every((e) => /^198\.51\.100\.1[23]\d$/.test(String(e.address)))).toBe(true);
    const statuses = answers!.map((a) => a.status).sort();
    expect(statuses).toEqual([
      ...Array<number>(PER_USERNAME).fill(401),
      ...Array<number>(12 - PER_USERNAME).fill(429),
    ]);
  });

  it("holds an address after its failures across usernames, not the proxy's other clients", async () => {
    const guesser = { forwardedFor: '192.0.2.66' };
    for (let n = 1; n <= PER_ADDRESS; n++)
      expect((await signInFrom(n % 2 ? one : two, `lt-guess-${n}-${RUN}`, 'x', guesser)).status).toBe(401);
    expect((await signInFrom(one, good, PASSWORD, guesser)).status).toBe(429);
    expect((await signInFrom(two, good, PASSWORD, guesser)).status).toBe(429);
    // Another client behind the same proxy signs in.
    expect((await signInFrom(two, good, PASSWORD, { forwardedFor: '192.0.2.67' })).status).toBe(200);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    // A client that is no proxy of TRUST_PROXY cannot claim the held address (nor anyone else's) ...
    expect(
      (await signInFrom(one, good, PASSWORD, { local: '127.0.0.2', forwardedFor: '192.0.2.66' })).status,
    ).toBe(200);
    // ... nor escape its own count by making up a new address for each guess.
    for (let n = 1; n <= PER_ADDRESS; n++) {
      const res = await signInFrom(n % 2 ? one : two, `lt-spoof-${n}-${RUN}`, 'x', {
        local: '127.0.0.3',
        forwardedFor: `203.0.113.${n}`,
      });
      expect({ n, status: res.status }).toEqual({ n, status: 401 });
    }
    const res = await signInFrom(one, good, PASSWORD, { local: '127.0.0.3', forwardedFor: '203.0.113.99' });
    expect(res.status).toBe(429);
  });

  it('counts a wrong current password of the own password change as a failed sign-in of the username', async () => {
    const session = await signIn(request(one.getHttpServer()), changer, PASSWORD);
    const NEW_PASSWORD = `Changed-${RUN}-Harbour`;
    const change = (currentPassword: string, via: INestApplication = one) =>
      request(via.getHttpServer())
        .post('/api/account/password')
        .set('Cookie', session.cookie)
        .set(CSRF_HEADER, session.csrf)
        .send({ currentPassword, newPassword: NEW_PASSWORD });
    for (let n = 1; n <= PER_USERNAME; n++)
      expect((await change('wrong', n % 2 ? one : two)).status).toBe(400);
    // Held on either instance, the right password too, before it is checked ...
    const held = await change(PASSWORD, two);
    expect([held.status, held.headers['retry-after'], held.body.errorMessage]).toEqual([
      429,
      '3',
      TOO_MANY_WRONG_PASSWORDS,
    ]);
    // ... and so is the sign-in of that username, from anywhere.
    expect((await signInFrom(one, changer, PASSWORD, { forwardedFor: '198.51.100.77' })).status).toBe(429);
    await sleep(Number(held.headers['retry-after']) * 1000 + 100);
    expect((await change(PASSWORD)).status).toBe(200);
    // The success cleared the username's failures: the next mistake is a plain 400; the new password signs in.
    expect((await change('wrong', two)).status).toBe(400);
    expect((await signInFrom(two, changer, NEW_PASSWORD, { forwardedFor: '198.51.100.78' })).status).toBe(
      200,
    );
  });

  it('keeps the counts in the gateway schema of the database, hashed', async () => {
    const db = await connectTestDatabase();
    try {
      const { rows } = await db.query<{ key: string }>('SELECT key FROM gateway.rate_limits');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.key.includes(victim) || r.key.includes('192.0.2.66'))).toBe(false);
    } finally {
      await db.end();
    }
  });
});
