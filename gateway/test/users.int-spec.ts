import { INestApplication } from '@nestjs/common';
import { runServiceSeed, ServiceProcess, startServiceProcess } from '@irp/platform/testing';
import { Client } from 'pg';
import request from 'supertest';
import { TOTP, Secret } from 'otpauth';
import {
  LAST_REQUIRED_FACTOR,
  SECOND_FACTOR_COOKIE,
  SECOND_FACTOR_EXPIRED,
  SECOND_FACTOR_NEEDED,
  SECOND_FACTOR_REFUSED,
  SECOND_FACTOR_REQUIRED,
  Stock,
} from '@irp/proto';
import {
  basic,
  clientOf,
  cookiesSetBy,
  connectTestDatabase,
  createStockAsAdmin,
  Session,
  sessionSetBy,
  signIn,
  startTestGateway,
  until,
} from './gateway-harness';

jest.setTimeout(300_000);

const RUN = Date.now().toString(36).slice(-6).toUpperCase();
const GOOD = 'Users-Route-Pass-2026';

/**
 * The users routes through the gateway on the real users and stocks services: the list, the editor's read
 * ('new' too) and save, the company search, the own password change, and every refusal: signed out 401,
 * a role short of EditUsers 403, a non-admin and the staff roles 403, the policy and bad input 400,
 * a taken username 409, an unknown id 404, each with errorMessage; the audit rows for admins; and a changed
 * user's old session answering 401.
 */
describe('gateway users routes against the real services', () => {
  let users: ServiceProcess;
  let stocks: ServiceProcess;
  let gateway: INestApplication;
  let http: ReturnType<typeof request>;
  let db: Client;
  const sessions: Record<string, Session> = {};
  let get: ReturnType<typeof clientOf>['get'];
  let post: ReturnType<typeof clientOf>['post'];
  let A: Stock;

  const create = (body: Record<string, unknown>, who = 'useradmin') => post('/api/users/new', body, who);

  beforeAll(async () => {
    [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
    await Promise.all([runServiceSeed('users'), runServiceSeed('stocks')]);
    ({ gateway, http } = await startTestGateway());
    ({ get, post } = clientOf(http, sessions));
    db = await connectTestDatabase();
    sessions.admin = await signIn(http, 'admin', 'Admin!2026');
    sessions.useradmin = await signIn(http, 'useradmin', 'UserAdmin!2026');
    sessions.reports = await signIn(http, 'reports', 'Reports!2026');
    A = await createStockAsAdmin(post, { ticker: `UA${RUN}`, companyName: `Users Alpha ${RUN}` });
    await until(
      async () => (await get(`/api/userEditor/companies?search=${A.ticker}`, 'useradmin')).body,
      (body) => Array.isArray(body) && body.length === 1,
      `the users service's projection knowing ${A.combinedTicker}`,
      30_000,
    );
  });

  afterAll(async () => {
    await db?.end();
    await gateway?.close();
    await Promise.all([users?.stop(), stocks?.stop()]);
  });

  it('refuses the signed out (401) and a user without EditUsers (403), with errorMessage', async () => {
    for (const [path, method] of [
      ['/api/users/', 'get'],
      ['/api/users/new', 'get'],
      ['/api/userEditor/companies', 'get'],
      ['/api/users/new', 'post'],
    ] as const) {
      const out = method === 'get' ? await get(path) : await post(path, {});
      expect([path, out.status]).toEqual([path, 401]);
      const wrong = method === 'get' ? await get(path, 'reports') : await post(path, {}, 'reports');
      expect([path, wrong.status]).toEqual([path, 403]);
      expect(wrong.body.errorMessage).toEqual(expect.any(String));
    }
    expect((await post('/api/account/password', {})).status).toBe(401);
  });

  it('creates a client user with a permission row, lists it, reads it (and an empty user for new)', async () => {
    expect((await get('/api/users/new', 'useradmin')).body).toEqual({
      id: null,
      username: '',
      roles: [],
      permissions: [],
    });
    const saved = await create({
      username: `client-${RUN}`,
      password: GOOD,
      permissions: [{ combinedTicker: A.combinedTicker, companyName: A.companyName, roles: ['ViewConfig'] }],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ success: true, errorMessage: null, id: expect.any(String) });
    const list = await get('/api/users/', 'useradmin');
    expect(list.body).toEqual(expect.arrayContaining([{ id: saved.body.id, username: `client-${RUN}` }]));
    const user = await get(`/api/users/${saved.body.id}`, 'useradmin');
    expect(user.body).toEqual({
      id: saved.body.id,
      username: `client-${RUN}`,
      roles: [],
      permissions: [
        {
          stockId: A.id,
          combinedTicker: A.combinedTicker,
          companyName: A.companyName,
          archived: false,
          roles: ['ViewConfig'],
        },
      ],
    });
    // The new user signs in and holds the role on A.
    const client = await signIn(http, `client-${RUN}`, GOOD);
    const me = await http.get('/api/admin/refreshtoken').set('Cookie', client.cookie);
    expect(me.body.stockRoles).toEqual({ [A.id]: ['ViewConfig'] });
  });

  it('refuses the policy, a taken username, bad input and an unknown id, each with errorMessage', async () => {
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ username: `short-${RUN}`, password: 'Short!2026' }, 400, /at least 12 characters/],
      [{ username: `Name-Is-Pass-${RUN}`, password: `name-is-pass-${RUN}` }, 400, /must not be the username/],
      [{ username: `common-${RUN}`, password: 'welcome12345' }, 400, /too common/],
      [{ username: `nopw-${RUN}`, password: '' }, 400, 'A password is required for a new user'],
      [{ username: `CLIENT-${RUN}`, password: GOOD }, 409, `The username CLIENT-${RUN} is already taken`],
      [
        {
          username: `unknown-${RUN}`,
          password: GOOD,
          permissions: [{ combinedTicker: 'ZZZ:ASX', roles: [] }],
        },
        400,
        'Unknown company: ZZZ:ASX',
      ],
      [{ username: `extra-${RUN}`, password: GOOD, isAdmin: true }, 400, /isAdmin/],
      [{ username: 42, password: GOOD }, 400, /username/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(body);
      expect([body, res.status]).toEqual([body, status]);
      expect(res.body.errorMessage).toMatch(message);
    }
    const unknown = '99999999-9999-4999-8999-999999999999';
    const missing = await get(`/api/users/${unknown}`, 'useradmin');
    expect([missing.status, missing.body.errorMessage]).toEqual([404, 'User not found']);
    expect((await get('/api/users/..%2F..%2Fetc', 'useradmin')).status).toBe(400);
  });

  it('lets only an Admin set staff roles (403 for EditUsers alone) and shows admins the audit rows', async () => {
    const refused = await create({ username: `staff-${RUN}`, password: GOOD, roles: ['RunReports'] });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMessage).toMatch(/Only an Admin can set the staff roles/);
    const adminList = (await get('/api/users/', 'useradmin')).body as Array<{ id: string; username: string }>;
    const adminId = adminList.find((u) => u.username === 'admin')!.id;
    const hijack = await post(`/api/users/${adminId}`, { password: 'Hijacked-Admin-2026' }, 'useradmin');
    expect([hijack.status, hijack.body.errorMessage]).toEqual([
      403,
      'Only an Admin can change a user who holds a staff role',
    ]);

    const made = await create({ username: `staff-${RUN}`, password: GOOD, roles: ['RunReports'] }, 'admin');
    expect(made.status).toBe(200);
    const forAdmin = await get(`/api/users/${made.body.id}`, 'admin');
    expect(forAdmin.body.roles).toEqual(['RunReports']);
    expect(forAdmin.body.audit).toEqual([
      expect.objectContaining({
        actorUsername: 'admin',
        usernameBefore: null,
        rolesAfter: ['RunReports'],
        passwordChanged: true,
      }),
    ]);
    expect((await get(`/api/users/${made.body.id}`, 'useradmin')).body.audit).toBeUndefined();
    const [{ n }] = (
      await db.query(`SELECT count(*)::int AS n FROM users.user_audit WHERE user_id = $1`, [made.body.id])
    ).rows;
    expect(n).toBe(1);
  });

  it("ends the user's old session on a role change: its cookie answers 401; a blank password keeps the old one", async () => {
    const { body } = await create({ username: `changed-${RUN}`, password: GOOD });
    sessions.changed = await signIn(http, `changed-${RUN}`, GOOD);
    expect((await http.get('/api/admin/refreshtoken').set('Cookie', sessions.changed.cookie)).status).toBe(
      200,
    );
    const saved = await post(
      `/api/users/${body.id}`,
      {
        username: 'ignored',
        password: '',
        permissions: [{ combinedTicker: A.combinedTicker, roles: ['Invoicing'] }],
      },
      'useradmin',
    );
    expect(saved.status).toBe(200);
    expect((await http.get('/api/admin/refreshtoken').set('Cookie', sessions.changed.cookie)).status).toBe(
      401,
    );
    // The blank password kept the old one, and the username was not changed.
    await signIn(http, `changed-${RUN}`, GOOD);
    expect((await get(`/api/users/${body.id}`, 'useradmin')).body.username).toBe(`changed-${RUN}`);
  });

  it("changes the signed-in user's own password with the current one; that session stays", async () => {
    await create({ username: `self-${RUN}`, password: GOOD });
    sessions.self = await signIn(http, `self-${RUN}`, GOOD);
    const other = await signIn(http, `self-${RUN}`, GOOD);
    const wrong = await post(
      '/api/account/password',
      { currentPassword: 'nope', newPassword: 'Brand-New-Pass-77' },
      'self',
    );
    expect([wrong.status, wrong.body.errorMessage]).toEqual([400, 'The current password is not right']);
    const weak = await post('/api/account/password', { currentPassword: GOOD, newPassword: 'short' }, 'self');
    expect(weak.status).toBe(400);
    expect(weak.body.errorMessage).toMatch(/at least 12 characters/);
    const ok = await post(
      '/api/account/password',
      { currentPassword: GOOD, newPassword: 'Brand-New-Pass-77' },
      'self',
    );
    expect([ok.status, ok.body]).toEqual([200, { success: true }]);
    expect((await http.get('/api/admin/refreshtoken').set('Cookie', sessions.self.cookie)).status).toBe(200);
    expect((await http.get('/api/admin/refreshtoken').set('Cookie', other.cookie)).status).toBe(401);
    await signIn(http, `self-${RUN}`, 'Brand-New-Pass-77');
  });

  it('holds a user whose password someone else set to choosing their own: every other call 403 until then', async () => {
    await create({
      username: `onetime-${RUN}`,
      password: GOOD,
      permissions: [{ combinedTicker: A.combinedTicker, roles: ['ViewConfig'] }],
    });
    sessions.onetime = await signIn(http, `onetime-${RUN}`, GOOD);
    const me = await http.get('/api/admin/refreshtoken').set('Cookie', sessions.onetime.cookie);
    expect(me.body.mustChangePassword).toBe(true);
    const refused = await get('/api/clientDashboard/', 'onetime');
    expect([refused.status, refused.body.errorMessage]).toEqual([
      403,
      'Your password was set by someone else: choose a new one (Change Password) before going on',
    ]);
    expect((await get(`/api/ClientStock/?combinedTicker=${A.combinedTicker}`, 'onetime')).status).toBe(403);
    const changed = await post(
      '/api/account/password',
      { currentPassword: GOOD, newPassword: 'Chosen-By-Me-2026' },
      'onetime',
    );
    expect(changed.status).toBe(200);
    // At once (the gateway's session cache forgets the session that changed it).
    expect((await get('/api/clientDashboard/', 'onetime')).status).toBe(200);
    const after = await http.get('/api/admin/refreshtoken').set('Cookie', sessions.onetime.cookie);
    expect(after.body.mustChangePassword).toBeUndefined();
  });

  describe('second factors (issue 34): an authenticator app and recovery codes, required for some roles', () => {
    const username = `mfa-${RUN.toLowerCase()}`;
    const password = 'Second-Factor-Pass-2026';
    let secret: string;
    let recoveryCodes: string[];
    /** The authenticator app's code at `at` (an independent TOTP: otpauth, as the apps compute it). */
    const codeAt = (at: number) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
        timestamp: at,
      });
    /** GET /api/login with the password: the ticket cookie of a second step, and the answer. */
    const passwordStep = async () => {
      const res = await http.get('/api/login').set('Authorization', basic(username, password));
      const ticket = (res.headers['set-cookie'] as unknown as string[] | undefined)?.find((c) =>
        c.startsWith(`${SECOND_FACTOR_COOKIE}=`),
      );
      return { res, ticket: ticket?.split(';')[0] };
    };
    const withCode = (ticket: string | undefined, code: string) => {
      const r = http.post('/api/login/code');
      return (ticket ? r.set('Cookie', ticket) : r).send({ code });
    };

    beforeAll(async () => {
      const created = await post(
        '/api/users/new',
        { username, password: 'One-Time-Pass-2026', permissions: [], roles: ['InvoiceTotal'] },
        'admin',
      );
      expect(created.status).toBe(200);
      // From here InvoiceTotal needs a second factor (in production Admin and EditUsers do): the users service
      // again with MFA_REQUIRED_ROLES, on the same database.
      await users.stop();
      users = await startServiceProcess('users', { env: { MFA_REQUIRED_ROLES: 'InvoiceTotal' } });
    });

    it('holds a user whose roles need one to setting it up: every other call 403 until then', async () => {
      sessions.mfa = await signIn(http, username, 'One-Time-Pass-2026');
      expect(
        (
          await post(
            '/api/account/password',
            { currentPassword: 'One-Time-Pass-2026', newPassword: password },
            'mfa',
          )
        ).status,
      ).toBe(200);
      const me = await http.get('/api/admin/refreshtoken').set('Cookie', sessions.mfa.cookie);
      expect(me.body.mustAddSecondFactor).toBe(true);
      const refused = await get('/api/clientDashboard/', 'mfa');
      expect([refused.status, refused.body.errorMessage]).toEqual([403, SECOND_FACTOR_REQUIRED]);
      const status = await get('/api/account/security', 'mfa');
      expect(status.body).toEqual({ passkeys: [], totp: false, recoveryCodesLeft: 0, required: true });
    });

    it('sets up the authenticator app with one of its codes; the secret is stored sealed; recovery codes shown once', async () => {
      const setup = await post('/api/account/totp/setup', {}, 'mfa');
      expect(setup.status).toBe(200);
      secret = setup.body.secret as string;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setup.body.uri).toMatch(new RegExp(`^otpauth://totp/IR%20Portal:${username}\\?`));
      const { rows } = await db.query<{ sealed_secret: string }>(
        `SELECT t.sealed_secret FROM users.totp t JOIN users.users u ON u.id = t.user_id WHERE u.username = $1`,
        [username],
      );
      expect(rows[0].sealed_secret.startsWith('sealed:v1:')).toBe(true);
      expect(rows[0].sealed_secret).not.toContain(secret);

      const wrong = await post('/api/account/totp', { code: codeAt(Date.now() - 10 * 60_000) }, 'mfa');
      expect([wrong.status, wrong.body.errorMessage]).toEqual([
        400,
        'That code is not right: type the code the app shows now',
      ]);
      const confirmed = await post('/api/account/totp', { code: codeAt(Date.now()) }, 'mfa');
      expect(confirmed.status).toBe(200);
      recoveryCodes = confirmed.body.recoveryCodes as string[];
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const c of recoveryCodes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      const { rows: stored } = await db.query<{ code_hash: string }>(
        `SELECT r.code_hash FROM users.recovery_codes r JOIN users.users u ON u.id = r.user_id WHERE u.username = $1`,
        [username],
      );
      expect(stored).toHaveLength(10);
      expect(stored.some((r) => recoveryCodes.some((c) => r.code_hash.includes(c.replace('-', ''))))).toBe(
        false,
      );

      // The session may do everything its roles allow at once; the security page says what is set up.
      expect((await get('/api/clientDashboard/', 'mfa')).status).toBe(200);
      expect((await get('/api/account/security', 'mfa')).body).toEqual({
        passkeys: [],
        totp: true,
        recoveryCodesLeft: 10,
        required: true,
      });
      // Its last second factor cannot be removed while the roles need one.
      const removal = await http
        .delete('/api/account/totp')
        .set('Cookie', sessions.mfa.cookie)
        .set('X-XSRF-TOKEN', sessions.mfa.csrf);
      expect([removal.status, removal.body.errorMessage]).toEqual([400, LAST_REQUIRED_FACTOR]);
    });

    it('signs in with the password and then a code: 401 with the methods first, a ticket cookie for the sign-in routes only', async () => {
      const { res, ticket } = await passwordStep();
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        errorMessage: SECOND_FACTOR_NEEDED,
        secondFactor: { methods: ['totp', 'recovery'] },
      });
      expect(res.headers['set-cookie']?.[0] ?? '').toMatch(/HttpOnly/i);
      expect((res.headers['set-cookie'] as unknown as string[]).join()).toMatch(/Path=\/api\/login/);
      expect(cookiesSetBy(res)).not.toHaveProperty('irp_session');
      expect(ticket).toBeDefined();

      // A wrong code is refused; a code of the next 30 s (one step either side is accepted) signs in: the step
      // the setup used is spent.
      expect((await withCode(ticket, '000000')).body.errorMessage).toBe(SECOND_FACTOR_REFUSED);
      const signedIn = await withCode(ticket, codeAt(Date.now() + 30_000));
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.username).toBe(username);
      const session = sessionSetBy(signedIn);
      expect((await http.get('/api/clientDashboard/').set('Cookie', session.cookie)).status).toBe(200);
      // The ticket is good once, and the same code twice is refused (a replayed code).
      expect((await withCode(ticket, codeAt(Date.now() + 30_000))).body.errorMessage).toBe(
        SECOND_FACTOR_EXPIRED,
      );
      const again = await passwordStep();
      expect((await withCode(again.ticket, codeAt(Date.now() + 30_000))).body.errorMessage).toBe(
        SECOND_FACTOR_REFUSED,
      );
      // No ticket at all.
      expect((await withCode(undefined, '123456')).body.errorMessage).toBe(SECOND_FACTOR_EXPIRED);
    });

    it('takes a recovery code once, typed loosely; five wrong codes end the ticket', async () => {
      const { ticket } = await passwordStep();
      const loose = recoveryCodes[0].toLowerCase().replace('-', ' ');
      expect((await withCode(ticket, loose)).status).toBe(200);
      expect((await get('/api/account/security', 'mfa')).body.recoveryCodesLeft).toBe(9);
      const reuse = await passwordStep();
      expect((await withCode(reuse.ticket, recoveryCodes[0])).body.errorMessage).toBe(SECOND_FACTOR_REFUSED);

      const guessing = await passwordStep();
      for (let i = 0; i < 5; i++)
        expect((await withCode(guessing.ticket, `GUESS-${i}000${i}`)).body.errorMessage).toBe(
          SECOND_FACTOR_REFUSED,
        );
      const late = await withCode(guessing.ticket, recoveryCodes[1]);
      expect([late.status, late.body.errorMessage]).toEqual([401, SECOND_FACTOR_EXPIRED]);
    });
  });
});
