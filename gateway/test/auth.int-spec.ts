import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { CSRF_COOKIE, CSRF_HEADER, REFRESH_COOKIE, SESSION_COOKIE } from '@irp/proto';
import { serviceManifest } from '@irp/platform';
import {
  loadTestEnv,
  runServiceSeed,
  ServiceProcess,
  startServiceProcess,
  testDatabaseUrl,
} from '@irp/platform/testing';
import request from 'supertest';
import { createGateway } from '../src/main';
import { connectTestDatabase } from './gateway-harness';

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** Cookie name -> { value, attributes } from Set-Cookie headers. */
function cookiesOf(res: request.Response): Record<string, { value: string; attrs: string }> {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const out: Record<string, { value: string; attrs: string }> = {};
  for (const c of raw ?? []) {
    const [pair, ...attrs] = c.split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i).trim()] = {
      value: decodeURIComponent(pair.slice(i + 1)),
      attrs: attrs.join(';').trim(),
    };
  }
  return out;
}

const jar = (c: Record<string, { value: string }>, ...names: string[]) =>
  names.map((n) => `${n}=${c[n].value}`).join('; ');

describe('gateway auth routes against the real users service over Kafka', () => {
  let users: ServiceProcess | undefined;
  // Started so that /health (which pings every service of the catalogue) can be all up.
  let stocks: ServiceProcess | undefined;
  let gateway: INestApplication;
  let http: ReturnType<typeof request>;
  const webDist = mkdtempSync(join(tmpdir(), 'irp-web-'));

  beforeAll(async () => {
    loadTestEnv();
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(
      join(webDist, 'index.html'),
      '<!doctype html><title>IR Portal</title><div id="root"></div>',
    );
    writeFileSync(join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
    await runServiceSeed('users');
    gateway = await createGateway({
      ...process.env,
      DATABASE_URL: testDatabaseUrl('gateway'),
      PORT: '0',
      // A users service of a loaded machine answers late: late is not a 503 (the 503 test waits this out).
      KAFKA_REQUEST_TIMEOUT_MS: '20000',
      HEALTH_DOWN_TIMEOUT_MS: '20000',
      LOGIN_THROTTLE_LIMIT: '25',
      // Every test signs in from 127.0.0.1, and the failure counts outlive one test file (the database's).
      LOGIN_THROTTLE_ADDRESS_LIMIT: '1000',
      // A hold long enough that the attempt after the limit meets it, however slow the machine.
      LOGIN_THROTTLE_FIRST_DELAY_MS: '60000',
      SESSION_CACHE_MS: '0',
      WEB_DIST: webDist,
    });
    http = request(gateway.getHttpServer());
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([users?.stop(), stocks?.stop()]);
  });

  describe('signed out', () => {
    it('refreshtoken answers 401 with the error shape', async () => {
      const res = await http.get('/api/admin/refreshtoken');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'Not signed in',
        errorMessage: 'Not signed in',
      });
    });

    it('logout without a session is harmless', async () => {
      const res = await http.delete('/api/login');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    });
  });

  describe('sign-in', () => {
    it.each([
      ['a wrong password', basic('admin', 'wrong')],
      ['an unknown user', basic('nobody', 'whatever')],
      ['no credentials', undefined],
      ['a malformed header', 'Basic !!!'],
      ['an empty password', basic('admin', '')],
    ])('refuses %s with 401 Invalid username/password and sets no session', async (_, auth) => {
      const req = http.get('/api/login');
      const res = await (auth ? req.set('Authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.body.errorMessage).toBe('Invalid username/password');
      expect(cookiesOf(res)[SESSION_COOKIE]).toBeUndefined();
    });

    it('signs in with the right password: the session user and three cookies', async () => {
      const res = await http.get('/api/login').set('Authorization', basic('admin', 'Admin!2026'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        username: 'admin',
        user: { id: expect.any(String), username: 'admin' },
        roles: { Admin: true, EditUsers: true, InvoiceTotal: true },
        stockRoles: {},
      });
      // The session user and its roles are kept by no browser cache or proxy.
      expect(res.headers['cache-control']).toBe('no-store');
      const c = cookiesOf(res);
      expect(c[SESSION_COOKIE].attrs).toMatch(/HttpOnly/);
      expect(c[SESSION_COOKIE].attrs).toMatch(/SameSite=Strict/);
      expect(c[SESSION_COOKIE].attrs).toMatch(/Path=\//);
      expect(c[REFRESH_COOKIE].attrs).toMatch(/Path=\/api\/admin\/refreshtoken/);
      expect(c[REFRESH_COOKIE].attrs).toMatch(/HttpOnly/);
      expect(c[CSRF_COOKIE].attrs).not.toMatch(/HttpOnly/);
    });

    it('returns per-stock roles of a client user', async () => {
      const res = await http.get('/api/login').set('Authorization', basic('client', 'Client!2026'));
      expect(res.status).toBe(200);
      expect(res.body.roles).toEqual({});
      expect(Object.values(res.body.stockRoles)).toHaveLength(2);
    });
  });

  describe('a signed-in session', () => {
    let c: Record<string, { value: string; attrs: string }>;
    beforeAll(async () => {
      c = cookiesOf(await http.get('/api/login').set('Authorization', basic('reports', 'Reports!2026')));
    });

    it('refreshtoken returns the session user', async () => {
      const res = await http.get('/api/admin/refreshtoken').set('Cookie', jar(c, SESSION_COOKIE));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ username: 'reports', roles: { RunReports: true } });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('renews an expired session from the refresh cookie, and refuses the refresh token a second time', async () => {
      const res = await http
        .get('/api/admin/refreshtoken')
        .set('Cookie', `${SESSION_COOKIE}=expired-or-unknown; ${jar(c, REFRESH_COOKIE)}`);
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('reports');
      const renewed = cookiesOf(res);
      expect(renewed[SESSION_COOKIE].value).not.toBe(c[SESSION_COOKIE].value);
      expect(renewed[REFRESH_COOKIE].value).not.toBe(c[REFRESH_COOKIE].value);
      const again = await http.get('/api/admin/refreshtoken').set('Cookie', jar(c, REFRESH_COOKIE));
      expect(again.status).toBe(401);
      c = renewed;
    });

    it('refreshes never extend a session past its absolute lifetime (a staff user: STAFF_SESSION_MAX_AGE_SECONDS from sign-in)', async () => {
      const own = cookiesOf(
        await http.get('/api/login').set('Authorization', basic('reports', 'Reports!2026')),
      );
      const db = await connectTestDatabase();
      try {
        const endOf = async (refresh: string) =>
          (
            await db.query(
              `SELECT absolute_expires_at AS "end", created_at AS "created" FROM users.sessions
                WHERE refresh_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
              [refresh],
            )
          ).rows[0] as { end: Date; created: Date };
        const before = await endOf(own[REFRESH_COOKIE].value);
        // 12 hours from sign-in by default for staff (issue 34; clients' 30 days: the users service's spec).
        // The row's created_at is the database's clock: a few ms apart.
        const hours = (before.end.getTime() - before.created.getTime()) / (3600 * 1000);
        expect(hours).toBeCloseTo(12, 2);
        const refreshed = await http.get('/api/admin/refreshtoken').set('Cookie', jar(own, REFRESH_COOKIE));
        expect(refreshed.status).toBe(200);
        const renewed = cookiesOf(refreshed);
        // The rotated tokens keep the session's end, and no cookie outlives it.
        expect(await endOf(renewed[REFRESH_COOKIE].value)).toEqual(before);
        const cookieEnd = Date.parse(/Expires=([^;]+)/.exec(renewed[REFRESH_COOKIE].attrs)![1]);
        expect(cookieEnd).toBeLessThanOrEqual(before.end.getTime());
        // The session reaches its end: the refresh cookie, though within its own 30 days, renews nothing.
        await db.query(
          `UPDATE users.sessions SET absolute_expires_at = now() - interval '1 second'
            WHERE refresh_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
          [renewed[REFRESH_COOKIE].value],
        );
        const over = await http.get('/api/admin/refreshtoken').set('Cookie', jar(renewed, REFRESH_COOKIE));
        expect(over.status).toBe(401);
        expect(over.body.errorMessage).toBe(
          'Your session has reached its maximum length; please sign in again',
        );
      } finally {
        await db.end();
      }
    });

    it('logout needs the CSRF header, then revokes the session', async () => {
      const cookie = jar(c, SESSION_COOKIE, REFRESH_COOKIE, CSRF_COOKIE);
      const forged = await http.delete('/api/login').set('Cookie', cookie);
      expect(forged.status).toBe(403);
      expect(forged.body.errorMessage).toMatch(/CSRF/);
      const wrong = await http.delete('/api/login').set('Cookie', cookie).set(CSRF_HEADER, 'nope');
      expect(wrong.status).toBe(403);
      const res = await http
        .delete('/api/login')
        .set('Cookie', cookie)
        .set(CSRF_HEADER, c[CSRF_COOKIE].value);
      expect(res.status).toBe(200);
      expect(cookiesOf(res)[SESSION_COOKIE].attrs).toMatch(/Expires=Thu, 01 Jan 1970/);
      const after = await http
        .get('/api/admin/refreshtoken')
        .set('Cookie', jar(c, SESSION_COOKIE, REFRESH_COOKIE));
      expect(after.status).toBe(401);
    });
  });

  it('throttles repeated sign-in attempts for one user with 429, leaving other users alone', async () => {
    let last: request.Response | undefined;
    // A username of its own each run: an earlier run's failures (same database, within the window) count.
    const victim = `victim-${Date.now().toString(36)}`;
    for (let i = 0; i < 26; i++)
      last = await http.get('/api/login').set('Authorization', basic(victim, `guess-${i}`));
    expect(last!.status).toBe(429);
    expect(last!.body.errorMessage).toBe(
      'Too many failed sign-in attempts. Please wait a while and try again.',
    );
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    const other = await http.get('/api/login').set('Authorization', basic('useradmin', 'UserAdmin!2026'));
    expect(other.status).toBe(200);
  });

  it('keeps idle keep-alive connections longer than the clients in front of it (no ECONNRESET on reuse)', () => {
    const server = gateway.getHttpServer() as import('node:http').Server;
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });

  it('sets security headers and echoes a correlation id', async () => {
    const res = await http.get('/api/admin/refreshtoken').set('x-correlation-id', 'test-corr-1');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-correlation-id']).toBe('test-corr-1');
  });

  it('serves OpenAPI at /api/docs', async () => {
    const html = await http.get('/api/docs');
    expect(html.status).toBe(200);
    expect(html.text).toContain('swagger');
    const json = await http.get('/api/docs-json');
    expect(Object.keys(json.body.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/admin/refreshtoken']),
    );
  });

  it('documents a response schema on every /api route and a request body on every POST', async () => {
    const json = await http.get('/api/docs-json');
    type Content = Record<string, { schema?: object }>;
    type Operation = {
      requestBody?: { content?: Content };
      responses?: Record<string, { content?: Content }>;
    };
    // JSON, except where a route's contract says otherwise: a multipart upload, a file answer (a PDF).
    const BODY_TYPES = ['application/json', 'multipart/form-data'];
    const ANSWER_TYPES = ['application/json', 'application/pdf'];
    const described = (content: Content | undefined, types: string[]) =>
      types.some((type) => content?.[type]?.schema);
    const paths = json.body.paths as Record<string, Record<string, Operation>>;
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      if (!path.startsWith('/api/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const ok = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
        if (!described(ok?.[1].content, ANSWER_TYPES)) missing.push(`${method} ${path}: response`);
        if (!operation.responses?.default?.content?.['application/json']?.schema)
          missing.push(`${method} ${path}: error body`);
        if (method === 'post' && !described(operation.requestBody?.content, BODY_TYPES))
          missing.push(`${method} ${path}: request body`);
      }
    }
    // A route whose entry lacks a schema shows up here by name.
    expect(missing).toEqual([]);
    const save = paths['/api/admin/stocks'].post;
    const body = save.requestBody?.content?.['application/json']?.schema as { properties?: object };
    expect(Object.keys(body.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'ticker', 'companyName']),
    );
    const answer = save.responses?.['200']?.content?.['application/json']?.schema as { properties?: object };
    expect(Object.keys(answer.properties ?? {})).toEqual(['success', 'stock', 'errorMessage']);
  });

  it('serves the web app with a fallback to index.html, but never for /api', async () => {
    const page = await http.get('/stocks/BHP:ASX/Config');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>IR Portal</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await http.get('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await http.get('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(api.body.statusCode).toBe(404);
  });

  it('reports each service of the manifest on /health, and /metrics', async () => {
    // The services this file does not start itself (a new one, such as the scaffold's) are started here,
    // so /health is 200 only when every service of services/manifest.json answers its ping.
    const names = serviceManifest().map((s) => s.name);
    const others = await Promise.all(
      names.filter((n) => n !== 'users' && n !== 'stocks').map((n) => startServiceProcess(n)),
    );
    try {
      const res = await http.get('/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
      expect(Object.keys(res.body.services).sort()).toEqual([...names].sort());
      // Each answered its ping: at once (`up`) or, on a busy machine, late (`slow`); none is down.
      for (const name of names) expect(res.body.services[name].status).toMatch(/^(up|slow)$/);
    } finally {
      await Promise.all(others.map((p) => p.stop()));
    }
    const metrics = await http.get('/metrics');
    expect(metrics.text).toContain('irp_kafka_request_duration_seconds');
    expect(metrics.text).toContain('irp_http_request_duration_seconds');
  });

  it('answers 503 with a clear message while the users service is stopped, and recovers without a restart', async () => {
    await users!.stop();
    users = undefined;
    // The request's own time limit (KAFKA_REQUEST_TIMEOUT_MS) ends the wait: the message says it.
    const res = await http.get('/api/login').set('Authorization', basic('admin', 'Admin!2026'));
    expect(res.status).toBe(503);
    expect(res.body.errorMessage).toMatch(/The users service is not available right now \(no answer within/);
    const health = await http.get('/health');
    expect(health.status).toBe(503);
    expect(health.body.services.users.status).toBe('down');

    users = await startServiceProcess('users');
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await http.get('/api/login').set('Authorization', basic('admin', 'Admin!2026'))).status;
    }
    expect(status).toBe(200);
  });
});
