import { INestApplication } from '@nestjs/common';
import { Topics } from '@irp/proto';
import { actor, stockFixture } from '@irp/proto/testing';
import { KafkaRequester, tokenHash } from '@irp/platform';
import { createTestRequester, dropSchema, expectAppError, serviceTestEnv } from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { startUsersService } from '../src/main';
import { StockProjectionService } from '../src/stocks/stock-projection.repository';
import { UpsertUser } from '../src/users/upsert-user';
import { gatewaySide, sealedPassword, Signed } from './gateway-side';

const TOPICS = [
  Topics.UsersAuthenticate,
  Topics.UsersSession,
  Topics.UsersList,
  Topics.UsersGet,
  Topics.UsersSave,
  Topics.UsersSearchCompanies,
  Topics.UsersChangeOwnPassword,
] as const;

const STOCK_A = '21111111-1111-4111-8111-111111111111';
const STOCK_B = '22222222-2222-4222-8222-222222222222';
const GOOD = 'Tasman-Harbour-77';

/**
 * User administration on the real broker and database: the list, a user with permission rows from the
 * stock projection, saves (create, update, blank password), the staff-role rules, the password policy, a
 * taken username, the audit rows and the sessions a change ends, and the own password change.
 */
describe('users service: user administration', () => {
  let app: INestApplication;
  let requester: KafkaRequester;
  let projection: StockProjectionService;
  let db: DataSource;
  let admin: ReturnType<typeof actor>;
  let editor: ReturnType<typeof actor>;

  /** A save as the gateway sends it: a password given is sealed for the users service. */
  const sealed = (body: Record<string, unknown>) =>
    typeof body.password === 'string' && body.password
      ? { ...body, password: sealedPassword(body.password) }
      : body;
  const save = (who: ReturnType<typeof actor>, body: Record<string, unknown>) =>
    requester.request(Topics.UsersSave, {
      actor: who,
      id: null,
      username: '',
      permissions: [],
      ...sealed(body),
    } as never);
  const signIn = (username: string, password: string) => gatewaySide(requester).signIn(username, password);
  const live = (signed: Signed) => gatewaySide(requester).live(signed);

  beforeAll(async () => {
    await dropSchema('users');
    app = await startUsersService(serviceTestEnv('users'));
    requester = await createTestRequester(TOPICS, 8000);
    projection = app.get(StockProjectionService);
    db = app.get(DataSource);
    await projection.apply(
      stockFixture({
        id: STOCK_A,
        ticker: 'UAA',
        companyName: 'Alpha Admin Mining',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    await projection.apply(
      stockFixture({
        id: STOCK_B,
        ticker: 'UBB',
        companyName: 'Beta Resources',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    const users = app.get(UpsertUser);
    const boss = await users.upsert({ username: 'boss', password: GOOD, roles: ['Admin'], stockRoles: {} });
    const clerk = await users.upsert({
      username: 'clerk',
      password: GOOD,
      roles: ['EditUsers'],
      stockRoles: {},
    });
    admin = actor(boss);
    editor = actor(clerk);
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
  });

  it('creates a client user with permission rows named by combinedTicker, and lists it', async () => {
    const { id } = await save(editor, {
      username: 'client-one',
      password: GOOD,
      permissions: [
        { combinedTicker: 'uaa:asx', roles: ['ViewConfig', 'EditAnnouncements'] },
        { combinedTicker: 'UBB:ASX', roles: ['ReplyToComment'] },
      ],
    });
    const user = await requester.request(Topics.UsersGet, { actor: editor, id });
    expect(user).toEqual({
      id,
      username: 'client-one',
      roles: [],
      permissions: [
        {
          stockId: STOCK_A,
          combinedTicker: 'UAA:ASX',
          companyName: 'Alpha Admin Mining',
          archived: false,
          roles: ['EditAnnouncements', 'ViewConfig'],
        },
        {
          stockId: STOCK_B,
          combinedTicker: 'UBB:ASX',
          companyName: 'Beta Resources',
          archived: false,
          roles: ['ReplyToComment'],
        },
      ],
    });
    const { users } = await requester.request(Topics.UsersList, { actor: editor });
    expect(users).toEqual(expect.arrayContaining([{ id, username: 'client-one' }]));
    expect(users.map((u) => u.username)).toEqual(
      [...users.map((u) => u.username)].sort((a, b) => a.localeCompare(b)),
    );
  });

  it("shows a stock's ticker change and archive in the rows (the projection)", async () => {
    const { id } = await save(admin, {
      username: 'client-ticker',
      password: GOOD,
      permissions: [{ combinedTicker: 'UBB:ASX', roles: ['ViewConfig'] }],
    });
    await projection.apply(
      stockFixture({
        id: STOCK_B,
        ticker: 'UBN',
        companyName: 'Beta Resources',
        archived: true,
        updatedAt: '2026-02-01T00:00:00.000Z',
      }),
    );
    const user = await requester.request(Topics.UsersGet, { actor: admin, id });
    expect(user.permissions).toEqual([
      expect.objectContaining({ stockId: STOCK_B, combinedTicker: 'UBN:ASX', archived: true }),
    ]);
  });

  it('searches companies by ticker or name, exact text anywhere, ignoring case', async () => {
    const names = async (search: string) =>
      (await requester.request(Topics.UsersSearchCompanies, { actor: editor, search })).companies.map(
        (c) => c.combinedTicker,
      );
    expect(await names('admin min')).toEqual(['UAA:ASX']);
    expect(await names('uaa')).toEqual(['UAA:ASX']);
    expect(await names('Alpha Mining')).toEqual([]);
    expect(await names('%')).toEqual([]);
  });

  it('refuses what the policy refuses, each with its reason', async () => {
    const create = (username: string, password: string | undefined) => save(editor, { username, password });
    await expectAppError(create('short-pw', 'Short!2026'), 'BAD_REQUEST', /at least 12 characters/);
    await expectAppError(
      create('Same-As-Name-1', 'same-as-name-1'),
      'BAD_REQUEST',
      /must not be the username/,
    );
    await expectAppError(create('common-pw', 'Password1234'), 'BAD_REQUEST', /too common/);
    await expectAppError(create('no-pw', undefined), 'BAD_REQUEST', 'A password is required for a new user');
    await expectAppError(create('  ', GOOD), 'BAD_REQUEST', 'Username is required');
    await expectAppError(
      save(editor, {
        username: 'dup-row',
        password: GOOD,
        permissions: [
          { combinedTicker: 'UAA:ASX', roles: ['ViewConfig'] },
          { combinedTicker: 'uaa', roles: [] },
        ],
      }),
      'BAD_REQUEST',
      'Row with this Company already exists',
    );
    await expectAppError(
      save(editor, {
        username: 'unknown-stock',
        password: GOOD,
        permissions: [{ combinedTicker: 'NOPE:ASX', roles: ['ViewConfig'] }],
      }),
      'BAD_REQUEST',
      'Unknown company: NOPE:ASX',
    );
    await expectAppError(
      save(editor, {
        username: 'bad-role',
        password: GOOD,
        permissions: [{ combinedTicker: 'UAA:ASX', roles: ['Admin'] }],
      }),
      'BAD_REQUEST',
      'Unknown stock role: Admin',
    );
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM users.users WHERE username IN ('short-pw','Same-As-Name-1','common-pw','no-pw','dup-row','unknown-stock','bad-role')`,
    );
    expect(n).toBe(0);
  });

  it('refuses a taken username whatever its case (409)', async () => {
    await expectAppError(
      save(editor, { username: 'CLIENT-ONE', password: GOOD }),
      'CONFLICT',
      'The username CLIENT-ONE is already taken',
    );
  });

  it('lets only an Admin set staff roles or change a staff user', async () => {
    await expectAppError(
      save(editor, { username: 'would-be-staff', password: GOOD, roles: ['RunReports'] }),
      'FORBIDDEN',
      /Only an Admin can set the staff roles/,
    );
    const boss = (await requester.request(Topics.UsersList, { actor: editor })).users.find(
      (u) => u.username === 'boss',
    )!;
    await expectAppError(
      requester.request(Topics.UsersSave, {
        actor: editor,
        id: boss.id,
        username: 'boss',
        permissions: [],
        password: sealedPassword('Hijacked-Boss-2026'),
      }),
      'FORBIDDEN',
      'Only an Admin can change a user who holds a staff role',
    );
    const { id } = await save(admin, {
      username: 'new-staff',
      password: GOOD,
      roles: ['RunReports', 'InvoiceTotal'],
    });
    expect((await requester.request(Topics.UsersGet, { actor: admin, id })).roles).toEqual([
      'InvoiceTotal',
      'RunReports',
    ]);
  });

  it("re-checks the signed actor's EditUsers role: a client's signed actor creates and changes no user", async () => {
    // Signed with the gateway's secret, but without the role the gateway's route guard asks for.
    const client = actor({ username: 'signed-client', stockRoles: { [STOCK_A]: ['ViewConfig'] } });
    const { id } = await save(editor, { username: 'client-target', password: GOOD });
    const users = async () => (await requester.request(Topics.UsersList, { actor: admin })).users;
    const before = await users();
    await expectAppError(
      save(client, { username: 'made-by-a-client', password: GOOD }),
      'FORBIDDEN',
      'You need the EditUsers role to change users',
    );
    await expectAppError(
      save(client, {
        id,
        username: 'client-target',
        password: 'Taken-Over-By-2026',
        permissions: [{ combinedTicker: 'UAA:ASX', roles: ['ViewConfig', 'EditAnnouncements'] }],
      }),
      'FORBIDDEN',
      'You need the EditUsers role to change users',
    );
    expect(await users()).toEqual(before);
    // The password is still the one the editor set.
    await expect(signIn('client-target', GOOD)).resolves.toBeDefined();
  });

  it('keeps the password on a blank one, changes it on a new one, and writes one audit row per change (admins read them)', async () => {
    const { id } = await save(editor, {
      username: 'audited',
      password: GOOD,
      permissions: [{ combinedTicker: 'UAA:ASX', roles: ['ViewConfig'] }],
    });
    const edit = (body: Record<string, unknown>) =>
      requester.request(Topics.UsersSave, {
        actor: editor,
        id,
        username: 'ignored-on-update',
        permissions: [],
        ...sealed(body),
      } as never);

    const phone = await signIn('audited', GOOD);
    // Blank password, same rows: nothing changes, no audit row, the session lives.
    await edit({ password: '   ', permissions: [{ combinedTicker: 'UAA:ASX', roles: ['ViewConfig'] }] });
    expect(await live(phone)).toBe(true);
    await signIn('audited', GOOD);

    // A role change ends the user's sessions.
    await edit({ permissions: [{ combinedTicker: 'UAA:ASX', roles: ['ViewConfig', 'Invoicing'] }] });
    expect(await live(phone)).toBe(false);

    // A password change too; the old password no longer signs in.
    const laptop = await signIn('audited', GOOD);
    await edit({
      password: 'Another-Good-One-9',
      permissions: [{ combinedTicker: 'UAA:ASX', roles: ['ViewConfig', 'Invoicing'] }],
    });
    expect(await live(laptop)).toBe(false);
    await expectAppError(signIn('audited', GOOD), 'UNAUTHENTICATED');
    await signIn('audited', 'Another-Good-One-9');

    const forAdmin = await requester.request(Topics.UsersGet, { actor: admin, id });
    expect(forAdmin.username).toBe('audited');
    expect(forAdmin.audit).toEqual([
      expect.objectContaining({
        actorUsername: 'clerk',
        usernameBefore: 'audited',
        usernameAfter: 'audited',
        stockRolesBefore: { [STOCK_A]: ['Invoicing', 'ViewConfig'] },
        stockRolesAfter: { [STOCK_A]: ['Invoicing', 'ViewConfig'] },
        passwordChanged: true,
      }),
      expect.objectContaining({
        stockRolesBefore: { [STOCK_A]: ['ViewConfig'] },
        stockRolesAfter: { [STOCK_A]: ['Invoicing', 'ViewConfig'] },
        passwordChanged: false,
      }),
      expect.objectContaining({
        actorId: editor.id,
        usernameBefore: null,
        usernameAfter: 'audited',
        rolesAfter: [],
        passwordChanged: true,
      }),
    ]);
    const stored = JSON.stringify(await db.query(`SELECT * FROM users.user_audit WHERE user_id = $1`, [id]));
    expect(stored).not.toContain('Another-Good-One-9');
    expect((await requester.request(Topics.UsersGet, { actor: editor, id })).audit).toBeUndefined();
  });

  it('saves back a row whose stock the projection has not heard of yet (named by its id), and refuses granting one', async () => {
    const unheard = '23333333-3333-4333-8333-333333333333';
    const { id } = await app.get(UpsertUser).upsert({
      username: 'early-client',
      password: GOOD,
      roles: [],
      stockRoles: { [unheard]: ['ViewConfig'] },
    });
    const read = await requester.request(Topics.UsersGet, { actor: editor, id });
    expect(read.permissions).toEqual([
      { stockId: unheard, combinedTicker: unheard, companyName: '', archived: false, roles: ['ViewConfig'] },
    ]);
    await requester.request(Topics.UsersSave, {
      actor: editor,
      id,
      username: 'early-client',
      permissions: read.permissions,
    });
    expect((await requester.request(Topics.UsersGet, { actor: editor, id })).permissions).toEqual(
      read.permissions,
    );
    await expectAppError(
      save(editor, { username: 'grant-unheard', password: GOOD, permissions: read.permissions }),
      'BAD_REQUEST',
      `Unknown company: ${unheard}`,
    );
  });

  it('answers NOT_FOUND for an unknown user', async () => {
    const unknown = '99999999-9999-4999-8999-999999999999';
    await expectAppError(
      requester.request(Topics.UsersGet, { actor: admin, id: unknown }),
      'NOT_FOUND',
      'User not found',
    );
    await expectAppError(
      requester.request(Topics.UsersSave, {
        actor: admin,
        id: unknown,
        username: 'x',
        permissions: [],
        password: sealedPassword(GOOD),
      }),
      'NOT_FOUND',
      'User not found',
    );
  });

  it("changes the user's own password with the current one: the asking session stays, the others end", async () => {
    const { id } = await save(editor, { username: 'self-service', password: GOOD });
    const [here, elsewhere] = [await signIn('self-service', GOOD), await signIn('self-service', GOOD)];
    const me = actor({ id, username: 'self-service' });
    const change = (currentPassword: string, newPassword: string) =>
      requester.request(Topics.UsersChangeOwnPassword, {
        actor: me,
        sessionHash: tokenHash(here.sessionToken),
        currentPassword: sealedPassword(currentPassword),
        newPassword: sealedPassword(newPassword),
      });
    await expectAppError(
      change('wrong-current-pw', 'Fresh-Password-42'),
      'BAD_REQUEST',
      'The current password is not right',
    );
    await expectAppError(change(GOOD, 'qwertyuiop123'), 'BAD_REQUEST', /too common/);
    await expectAppError(change(GOOD, 'SELF-SERVICE'), 'BAD_REQUEST', /must not be the username/);
    expect(await change(GOOD, 'Fresh-Password-42')).toEqual({ changed: true });
    expect([await live(here), await live(elsewhere)]).toEqual([true, false]);
    await signIn('self-service', 'Fresh-Password-42');
    const [row] = await db.query(
      `SELECT actor_id, password_changed FROM users.user_audit WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
      [id],
    );
    expect(row).toEqual({ actor_id: id, password_changed: true });
  });

  it('makes a password someone else sets one-time: the sign-in says so until the user chose their own', async () => {
    const { id } = await save(editor, { username: 'one-time', password: GOOD });
    const first = await signIn('one-time', GOOD);
    expect(first.user.mustChangePassword).toBe(true);
    // Roles alone (a blank password) leave it as it is.
    await requester.request(Topics.UsersSave, {
      actor: editor,
      id,
      username: 'one-time',
      permissions: [{ combinedTicker: 'UAA:ASX', roles: ['ViewConfig'] }],
    });
    const again = await signIn('one-time', GOOD);
    expect(again.user.mustChangePassword).toBe(true);
    const me = actor({ id, username: 'one-time' });
    await requester.request(Topics.UsersChangeOwnPassword, {
      actor: me,
      sessionHash: tokenHash(again.sessionToken),
      currentPassword: sealedPassword(GOOD),
      newPassword: sealedPassword('My-Own-Choice-2026'),
    });
    const own = await signIn('one-time', 'My-Own-Choice-2026');
    expect(own.user.mustChangePassword).toBeUndefined();
    // The session that changed it is no longer held to it (read afresh).
    expect((await gatewaySide(requester).lookup(again)).mustChangePassword).toBeUndefined();
    // An admin setting their own password in the editor chooses it: not one-time.
    const [self] = (await requester.request(Topics.UsersList, { actor: admin })).users.filter(
      (u) => u.username === 'boss',
    );
    await requester.request(Topics.UsersSave, {
      actor: admin,
      id: self.id,
      username: 'boss',
      permissions: [],
      password: sealedPassword('Boss-Own-Choice-2026'),
    } as never);
    expect((await signIn('boss', 'Boss-Own-Choice-2026')).user.mustChangePassword).toBeUndefined();
    // The audit names who set the one-time password.
    const [row] = await db.query(
      `SELECT actor_username, password_changed FROM users.user_audit WHERE user_id = $1 ORDER BY id LIMIT 1`,
      [id],
    );
    expect(row).toEqual({ actor_username: 'clerk', password_changed: true });
  });
});
