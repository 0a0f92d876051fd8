import { METHODS } from 'node:http';
import { INestApplication } from '@nestjs/common';
import {
  allRoutes,
  CSRF_HEADER,
  fillPath,
  GLOBAL_ROLES,
  GlobalRole,
  RouteEntry,
  SessionUserDtoSchema,
  Stock,
  STOCK_ROLES,
  StockRole,
} from '@irp/proto';
import { Client } from 'pg';
import request from 'supertest';
import { clientOf, runId, seedTestUsers, Session, SharedBackend, signIn } from '../gateway-harness';
import { RouteFixtures, startRouteFixtures } from '../route-fixtures';
import { CALLERS, CallerName, MatrixContext, ROUTE_SAMPLES, SampleRequest } from '../route-samples';

// 71 routes x 7 callers: 42 s alone, past 120 s beside two other lanes on 2 cores. No time budget here (a
// busy machine makes the run slower, never red); a test cut off mid-walk also left its calls running into
// the next test.

const RUN = runId();
const PASSWORD = 'RouteMatrix!2026';
/** The gateway's messages for a refused widget key (gateway/src/widget/widget-key.guard.ts). */
const UNKNOWN_API_KEY = 'Unknown API key';
const STOCK_ARCHIVED = 'This stock is archived';
const SUBSCRIPTION_EXPIRED = 'The subscription of this stock has expired';
/**
 * What the gateway's router serves that is not a controller's handler, named one by one so nothing else
 * can hide behind them: Swagger UI and its documents (main.ts, SwaggerModule.setup), and the widget's CORS
 * middleware (widget.module.ts), which Nest registers as a route of every method (`ALL`).
 */
const NOT_CONTROLLERS = new Set([
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/swagger-ui-init.js',
  'GET /api/docs/index.html',
  'GET /api/docs/LICENSE',
  'GET /api/docs/docs/swagger-ui-init.js',
  'GET /api/docs-json',
  'GET /api/docs-yaml',
  'ALL /api/widget/{*path}',
]);

/** One user as the matrix calls it: a session (none when signed out) and the roles the users service gave. */
interface Caller {
  name: CallerName;
  username?: string;
  password?: string;
  session?: Session;
  roles: string[];
  stockRoles: Record<string, string[]>;
}

/** The short code of each stock role in a test user's name (`rm-a-EV`: EditAnnouncements and ViewConfig on A). */
const CODE: Record<StockRole, string> = {
  ViewConfig: 'V',
  EditAnnouncements: 'E',
  EditMailchimp: 'M',
  SendMailchimp: 'S',
  TestSendAnnouncement: 'T',
  Invoicing: 'I',
  ReplyToComment: 'R',
};
const clientName = (stock: 'a' | 'b', roles: readonly StockRole[]) =>
  `rm-${stock}-${
    roles
      .map((r) => CODE[r])
      .sort()
      .join('') || 'none'
  }`;

/** `{x}` -> `:x` and no trailing slash: how a table path and a router path are compared. */
const routeKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1').replace(/\/+$/, '') || '/'}`;

/** The roles a route's three clients hold on A (or on B, for the other stock's). */
function clientRoles(
  entry: RouteEntry,
): Record<'holder' | 'otherStock' | 'lacking', [StockRole[], 'a' | 'b']> {
  const rule = entry.access;
  const needed = rule.kind === 'signedIn' && rule.stock ? ([...rule.stock.roles] as StockRole[]) : undefined;
  return {
    // Holds exactly the route's stock roles on A; a route without any: every role on A.
    holder: [needed ?? [...STOCK_ROLES], 'a'],
    // Every role, on B.
    otherStock: [[...STOCK_ROLES], 'b'],
    // On A, every role but the route's (a route without any: none).
    lacking: [needed ? STOCK_ROLES.filter((r) => !needed.includes(r)) : [], 'a'],
  };
}

/** The test user holding one global role alone (`rm-g-InvoiceTotal`). */
const globalHolderName = (role: GlobalRole) => `rm-g-${role}`;

/**
 * For each role a route accepts (any of its global roles, any of its stock roles on stock A), the test user
 * holding that one role alone, and the caller whose sample request it sends (the demo user or client of the
 * same standing): each must be let through, so a gateway that required all of a route's roles would fail.
 */
function oneRoleHolders(entry: RouteEntry): Array<{ role: string; user: string; as: CallerName }> {
  const rule = entry.access;
  if (rule.kind !== 'signedIn') return [];
  const asOf: Partial<Record<string, CallerName>> = { RunReports: 'reports', EditUsers: 'useradmin' };
  return [
    ...(rule.globalRoles ?? []).map((role) => ({
      role,
      user: globalHolderName(role as GlobalRole),
      as: asOf[role] ?? ('admin' as const),
    })),
    ...(rule.stock?.roles ?? []).map((role) => ({
      role: `${role} on the stock`,
      user: clientName('a', [role as StockRole]),
      as: 'holder' as const,
    })),
  ];
}

/**
 * What the access rule says of a caller, worked out here from the rule as data (not with the gateway's
 * code): allowed, 401 signed out, or 403 signed in without the role. Admin passes every role check.
 */
function expectedOf(entry: RouteEntry, caller: Caller, stockA: Stock): 'allowed' | 401 | 403 {
  const rule = entry.access;
  if (rule.kind !== 'signedIn') return 'allowed';
  if (!caller.session) return 401;
  const globalRoles: readonly string[] = rule.globalRoles ?? [];
  if (!globalRoles.length && !rule.stock) return 'allowed';
  if (caller.roles.includes('Admin')) return 'allowed';
  if (globalRoles.some((r) => caller.roles.includes(r))) return 'allowed';
  const onA = caller.stockRoles[stockA.id] ?? [];
  if (rule.stock && rule.stock.roles.some((r) => onA.includes(r))) return 'allowed';
  return 403;
}

/** The objects at a restricted-fields path ('' the body, 'stock', 'stocks[]' each element). */
function objectsAt(body: unknown, at: string): Record<string, unknown>[] {
  let values: unknown[] = [body];
  for (const segment of at ? at.split('.') : []) {
    const many = segment.endsWith('[]');
    const key = many ? segment.slice(0, -2) : segment;
    values = values.flatMap((v) => {
      const inner = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
      return many ? (Array.isArray(inner) ? inner : []) : [inner];
    });
  }
  return values.filter(
    (v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v),
  );
}

/** A 2xx answer's restricted fields against the caller's roles: absent without the role, present with it. */
function restrictedProblems(entry: RouteEntry, body: unknown, caller: Caller): string[] {
  const problems: string[] = [];
  for (const spot of entry.restricted ?? [])
    for (const object of objectsAt(body, spot.at)) {
      const stockId = String(object[spot.stockIdField ?? 'id']);
      for (const rule of spot.rules) {
        const held =
          caller.roles.includes('Admin') ||
          !!rule.globalRoles?.some((r) => caller.roles.includes(r)) ||
          !!rule.stockRoles?.some((r) => (caller.stockRoles[stockId] ?? []).includes(r));
        const present = rule.fields.filter((f) => f in object);
        if (!held && present.length)
          problems.push(`${entry.id} as ${caller.name}: shows ${present.join(', ')} without the role`);
        if (held && present.length !== rule.fields.length)
          problems.push(
            `${entry.id} as ${caller.name}: lacks ${rule.fields.filter((f) => !(f in object)).join(', ')} with the role`,
          );
      }
    }
  return problems;
}

/**
 * The route table made a test (issue 16): every route the gateway's router serves, called as signed out,
 * each demo staff role (admin, report-runner, user-admin), a client holding the route's stock roles on the
 * stock the request names, a client holding every role on another stock, and a client on that stock
 * without the route's roles; and, for each role the route accepts, a user holding that one role alone, who
 * must be let through (any role, not all). The status follows from the entry's access rule; a refused
 * change leaves its record as it was; an answer carries no field the caller's roles do not allow. The served routes come
 * from the router, so a route served without an entry, or an entry nothing serves, fails it; a route without
 * a sample (route-samples.ts) fails it too. Widget routes: a missing, wrong, archived or expired key is
 * refused, and a key reads only its own stock. The real users, stocks, announcements and email-marketing
 * services run behind the gateway on the real broker and database, with the providers' stand-in and an
 * SMTP sink.
 */
export function routeMatrixCases(shared: SharedBackend) {
  describe('the route matrix: every served route as signed out, the demo staff and three clients', () => {
    let fixtures: RouteFixtures;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    let db: Client;
    let sessions: Record<string, Session>;
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let ctx: MatrixContext;
    /** Test users by name, as the users service describes them once signed in. */
    const users: Record<string, Omit<Caller, 'name'>> = {};
    let archived: Stock;
    let expired: Stock;

    /**
     * The served routes (`METHOD path`), read from the Express router of the running gateway; a route of
     * every method (as Nest registers a middleware for all methods) is one `ALL path`.
     */
    function servedRoutes(): string[] {
      type Layer = { route?: { path: string; methods: Record<string, boolean> } };
      const app = gateway.getHttpAdapter().getInstance() as {
        router?: { stack: Layer[] };
        _router?: { stack: Layer[] };
      };
      const stack = (app.router ?? app._router)?.stack ?? [];
      const served = stack.flatMap(({ route }) => {
        if (!route) return [];
        const methods = Object.keys(route.methods).filter((m) => route.methods[m]);
        if (methods.includes('_all') || METHODS.every((m) => methods.includes(m.toLowerCase())))
          return [`ALL ${route.path}`];
        return methods.map((m) => `${m.toUpperCase()} ${route.path}`);
      });
      expect(served.length).toBeGreaterThan(0);
      return served;
    }

    /** The entries the router serves, each once, in the order they are served; and the served routes without one. */
    function servedEntries(): { entries: RouteEntry[]; withoutEntry: string[] } {
      const byKey = new Map(allRoutes().map((e) => [routeKey(e.method, e.path), e]));
      const entries: RouteEntry[] = [];
      const withoutEntry: string[] = [];
      for (const route of servedRoutes()) {
        if (NOT_CONTROLLERS.has(route)) continue;
        const [method, path] = route.split(' ');
        const entry = byKey.get(routeKey(method, path));
        if (!entry) withoutEntry.push(route);
        else if (!entries.includes(entry)) entries.push(entry);
      }
      return { entries, withoutEntry };
    }

    function callerOf(entry: RouteEntry, name: CallerName): Caller {
      if (name === 'signedOut') return { name, roles: [], stockRoles: {} };
      if (name === 'admin' || name === 'reports' || name === 'useradmin') return { ...users[name], name };
      const [roles, on] = clientRoles(entry)[name];
      return { ...users[clientName(on, roles)], name };
    }

    function send(entry: RouteEntry, req: SampleRequest, session?: Session) {
      const query = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
      const url = fillPath(entry.path, req.params ?? {}) + query;
      const method = entry.method.toLowerCase() as 'get' | 'post' | 'delete';
      let r = http[method](url);
      if (session) {
        r = r.set('Cookie', session.cookie);
        if (entry.method !== 'GET') r = r.set(CSRF_HEADER, session.csrf);
      }
      for (const [name, value] of Object.entries(req.headers ?? {})) r = r.set(name, value);
      if (req.form) {
        for (const [name, value] of Object.entries(req.form.fields)) r = r.field(name, value);
        if (!req.form.file) return r;
        const { field, data, filename } = req.form.file;
        return r.attach(field, data, { filename, contentType: 'application/pdf' });
      }
      return entry.method === 'GET' || req.body === undefined ? r : r.send(req.body);
    }

    /** The value a stock-role route names its stock by, in a sample's request. */
    function stockNamed(entry: RouteEntry, req: SampleRequest): string | undefined {
      if (entry.access.kind !== 'signedIn' || !entry.access.stock) return undefined;
      const { from, key } = entry.access.stock.ref;
      const source: Record<string, unknown> | undefined =
        from === 'param'
          ? req.params
          : from === 'query'
            ? req.query
            : ((req.body as Record<string, unknown> | undefined) ?? req.form?.fields);
      return source?.[key] === undefined ? undefined : String(source[key]);
    }

    beforeAll(async () => {
      fixtures = await startRouteFixtures(shared.backend(), RUN);
      ({ gateway, http, db, sessions, get, post, ctx, archived, expired } = fixtures);

      // The route clients: per route, its stock roles on A, every role on B, and every other role on A;
      // and clients of one role each for the restricted fields.
      const { A, B } = ctx;
      const clients = new Map<string, Record<string, StockRole[]>>();
      const addClient = (on: 'a' | 'b', roles: StockRole[]) =>
        clients.set(clientName(on, roles), roles.length ? { [(on === 'a' ? A : B).id]: roles } : {});
      for (const entry of allRoutes())
        for (const [roles, on] of Object.values(clientRoles(entry))) addClient(on, roles);
      for (const role of STOCK_ROLES) addClient('a', [role]);
      // Staff holding one global role alone (the demo admin holds three).
      const globalHolders = GLOBAL_ROLES.map((role) => ({
        username: globalHolderName(role),
        roles: [role],
        stockRoles: {},
      }));
      await seedTestUsers(PASSWORD, [
        ...[...clients].map(([username, stockRoles]) => ({ username, stockRoles })),
        ...globalHolders,
      ]);
      const credentials: Array<[string, string, string]> = [
        ['admin', 'admin', 'Admin!2026'],
        ['reports', 'reports', 'Reports!2026'],
        ['useradmin', 'useradmin', 'UserAdmin!2026'],
        ...[...clients.keys(), ...globalHolders.map((u) => u.username)].map(
          (name): [string, string, string] => [name, name, PASSWORD],
        ),
      ];
      await Promise.all(
        credentials.map(async ([key, username, password]) => {
          const session = await signIn(http, username, password);
          sessions[key] = session;
          const me = SessionUserDtoSchema.parse(
            (await http.get('/api/admin/refreshtoken').set('Cookie', session.cookie)).body,
          );
          users[key] = {
            username,
            password,
            session,
            roles: Object.entries(me.roles)
              .filter(([, held]) => held)
              .map(([role]) => role),
            stockRoles: me.stockRoles,
          };
        }),
      );
    }, 180_000);

    afterAll(async () => {
      await fixtures?.stop();
    });

    it('serves exactly the routes of the table: none without an entry, no entry without a handler', () => {
      const table = new Set(allRoutes().map((e) => routeKey(e.method, e.path)));
      const served = servedRoutes().filter((r) => !NOT_CONTROLLERS.has(r));
      const servedKeys = new Set(served.map((r) => routeKey(...(r.split(' ') as [string, string]))));
      expect({
        servedWithoutEntry: served.filter((r) => !table.has(routeKey(...(r.split(' ') as [string, string])))),
      }).toEqual({
        servedWithoutEntry: [],
      });
      expect({
        entriesNotServed: allRoutes()
          .filter((e) => !servedKeys.has(routeKey(e.method, e.path)))
          .map((e) => e.id),
      }).toEqual({ entriesNotServed: [] });
      // Each Swagger route named above is served: a stale name would hide nothing but says the list is wrong.
      expect(
        servedRoutes()
          .filter((r) => NOT_CONTROLLERS.has(r))
          .sort(),
      ).toEqual([...NOT_CONTROLLERS].sort());
    });

    it('has a sample for every entry, and none for an entry that does not exist', () => {
      const ids = allRoutes().map((e) => e.id);
      expect({ withoutSample: ids.filter((id) => !ROUTE_SAMPLES[id]) }).toEqual({ withoutSample: [] });
      expect({ staleSamples: Object.keys(ROUTE_SAMPLES).filter((id) => !ids.includes(id)) }).toEqual({
        staleSamples: [],
      });
    });

    it('answers every served route as its access rule says, for each of the seven callers; refused changes change nothing', async () => {
      const started = Date.now();
      const { entries, withoutEntry } = servedEntries();
      const problems = withoutEntry.map((route) => `${route}: served without a route table entry`);
      let calls = 0;
      let oneRoleCalls = 0;
      for (const entry of entries) {
        const sample = ROUTE_SAMPLES[entry.id];
        if (!sample) {
          problems.push(`${entry.id}: no sample in route-samples.ts`);
          continue;
        }
        await sample.prepare?.(ctx);
        const plan = await Promise.all(
          CALLERS.map(async (name) => {
            const caller = callerOf(entry, name);
            const req = await sample.request(ctx, name);
            const rule = expectedOf(entry, caller, ctx.A);
            const override = sample.status?.[name];
            return { caller, req, rule, override };
          }),
        );
        // A stock-role route's expectations are about stock A: its samples must name A.
        for (const { caller, req } of plan) {
          const named = stockNamed(entry, req);
          if (entry.access.kind !== 'signedIn' || !entry.access.stock) continue;
          const by = entry.access.stock.ref.by ?? 'combinedTicker';
          const a =
            by === 'stockId'
              ? ctx.A.id
              : by === 'commentGuid'
                ? ctx.commentA
                : by === 'apiKey'
                  ? ctx.A.apiKey
                  : ctx.A.combinedTicker;
          if (named !== a)
            problems.push(`${entry.id} as ${caller.name}: the sample names ${named}, not stock A (${a})`);
        }

        const call = async ({ caller, req, rule, override }: (typeof plan)[number]) => {
          let session = caller.session;
          if (session && sample.freshSession)
            session = await signIn(http, caller.username!, caller.password!);
          const res = await send(entry, req, session);
          calls++;
          const got = res.status;
          const want = override?.status ?? rule;
          const ok = want === 'allowed' ? got >= 200 && got <= 299 : got === want;
          if (!ok)
            problems.push(
              `${entry.id} as ${caller.name}: expected ${want === 'allowed' ? '2xx' : want}${override ? ` (${override.why})` : ''}, got ${got} ${JSON.stringify(res.body)?.slice(0, 300)}`,
            );
          if (got >= 200 && got <= 299) problems.push(...restrictedProblems(entry, res.body, caller));
        };

        const refused = plan.filter((p) => p.rule !== 'allowed');
        const allowed = plan.filter((p) => p.rule === 'allowed');
        const before = await sample.read?.(ctx);
        await Promise.all(refused.map(call));
        if (sample.read) {
          const after = await sample.read(ctx);
          if (JSON.stringify(after) !== JSON.stringify(before))
            problems.push(
              `${entry.id}: the refused calls changed it: before ${JSON.stringify(before)?.slice(0, 400)}, after ${JSON.stringify(after)?.slice(0, 400)}`,
            );
        }
        if (entry.method === 'GET') await Promise.all(allowed.map(call));
        else for (const p of allowed) await call(p);
        // Each role the route accepts, held alone: let through (a refusal after the guard, e.g. a record
        // already changed by the callers before, is not the access rule's).
        const oneRole = async ({ role, user, as }: ReturnType<typeof oneRoleHolders>[number]) => {
          const res = await send(entry, await sample.request(ctx, as), users[user].session);
          oneRoleCalls++;
          if (res.status === 401 || res.status === 403)
            problems.push(
              `${entry.id} as ${user}, holding ${role} alone: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`,
            );
          if (res.status >= 200 && res.status <= 299)
            problems.push(...restrictedProblems(entry, res.body, { ...users[user], name: as }));
        };
        if (entry.method === 'GET') await Promise.all(oneRoleHolders(entry).map(oneRole));
        else for (const h of oneRoleHolders(entry)) await oneRole(h);
        await sample.after?.(ctx);
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // The figure the issue note quotes.
      console.log(
        `route matrix: ${entries.length} routes x ${CALLERS.length} callers = ${calls} calls, and ${oneRoleCalls} calls of one-role holders, in ${seconds} s`,
      );
      expect(problems).toEqual([]);
      expect(entries.length).toBe(allRoutes().length);
      const servedKeys = new Set(
        servedRoutes()
          .filter((r) => !NOT_CONTROLLERS.has(r))
          .map((r) => routeKey(...(r.split(' ') as [string, string]))),
      );
      expect(calls).toBeGreaterThanOrEqual(servedKeys.size * 7);
    });

    describe('restricted fields: only the roles that allow them see them', () => {
      const configFields = [
        'apiKey',
        'contactEmail',
        'confirmationEmail',
        'announcementNotificationEmails',
        'autoSendFilter',
      ];
      const replyFields = ['moderatorEmail', 'companyLogoUrl', 'announcementCommentTemplate'];
      const invoiceFields = ['invoiceId', 'invoiceTotal', 'invoiceStatus', 'invoiceDate', 'invoiceNumber'];
      /** Each rule's fields: what the table lists, and at least what spec section 6 names. */
      const fieldsOf = (role: StockRole, floor: string[]) => {
        const entry = allRoutes().find((e) => e.id === 'stocks.clientGet')!;
        const listed = entry.restricted!.flatMap((s) => s.rules).filter((r) => r.stockRoles?.includes(role));
        return [...new Set([...floor, ...listed.flatMap((r) => r.fields)])];
      };
      const groups = () => ({
        ViewConfig: fieldsOf(StockRole.ViewConfig, configFields),
        ReplyToComment: fieldsOf(StockRole.ReplyToComment, replyFields),
        Invoicing: fieldsOf(StockRole.Invoicing, invoiceFields),
      });
      /** Which of the three groups the object shows whole, and which of their fields it shows at all. */
      const shown = (object: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(groups()).map(([role, fields]) => [
            role,
            fields.every((f) => f in object) ? 'all' : fields.some((f) => f in object) ? 'some' : 'none',
          ]),
        );
      const expected = (role: StockRole) =>
        Object.fromEntries(Object.keys(groups()).map((r) => [r, r === role ? 'all' : 'none']));

      it.each([
        StockRole.EditAnnouncements,
        StockRole.ViewConfig,
        StockRole.ReplyToComment,
        StockRole.Invoicing,
      ])('a client holding only %s on the stock: the client form and the dashboard', async (role) => {
        const who = clientName('a', [role]);
        const form = await get(`/api/ClientStock/?combinedTicker=${ctx.A.combinedTicker}`, who);
        expect(form.status).toBe(200);
        expect(shown(form.body)).toEqual(expected(role));
        const dashboard = await get('/api/clientDashboard/', who);
        expect(dashboard.status).toBe(200);
        const rows = (dashboard.body as { stocks: Record<string, unknown>[] }).stocks;
        expect(rows.map((s) => s.id)).toEqual([ctx.A.id]);
        expect(shown(rows[0])).toEqual(expected(role));
        const admin = await get(`/api/ClientStock/?combinedTicker=${ctx.A.combinedTicker}`, 'admin');
        expect(shown(admin.body)).toEqual({ ViewConfig: 'all', ReplyToComment: 'all', Invoicing: 'all' });
      });

      it('a client save answers with only the fields the saver may see; without ViewConfig it is refused', async () => {
        const body = { combinedTicker: ctx.A.combinedTicker, websiteUrl: ctx.A.websiteUrl };
        const saved = await post('/api/ClientStock', body, clientName('a', [StockRole.ViewConfig]));
        expect(saved.status).toBe(200);
        expect(shown(saved.body.stock)).toEqual(expected(StockRole.ViewConfig));
        const before = (await db.query('SELECT * FROM stocks.stocks WHERE id = $1', [ctx.A.id])).rows;
        const refused = await post('/api/ClientStock', body, clientName('a', [StockRole.EditAnnouncements]));
        expect(refused.status).toBe(403);
        expect(JSON.stringify(refused.body)).not.toContain('contact@alpha.example');
        expect((await db.query('SELECT * FROM stocks.stocks WHERE id = $1', [ctx.A.id])).rows).toEqual(
          before,
        );
      });
    });

    describe('widget keys', () => {
      const widgetEntries = () => servedEntries().entries.filter((e) => e.access.kind === 'widget');
      const withKey = (req: SampleRequest, apiKey?: string): SampleRequest => {
        const query = Object.fromEntries(
          Object.entries(req.query ?? {}).filter(([name]) => name !== 'apiKey'),
        );
        return { ...req, query: apiKey === undefined ? query : { ...query, apiKey } };
      };
      /** What a widget call could change: comments, subscribers, and the stocks' widget hits. */
      const widgetState = async () =>
        (
          await db.query(
            `SELECT (SELECT count(*)::int FROM announcements.comments) AS comments,
                  (SELECT count(*)::int FROM email_marketing.subscribers) AS subscribers`,
          )
        ).rows[0] as unknown;

      it('a missing, wrong, archived or expired-subscription key is refused on every widget route, changing nothing', async () => {
        const entries = widgetEntries();
        expect(entries.length).toBeGreaterThanOrEqual(7);
        const before = await widgetState();
        const problems: string[] = [];
        for (const entry of entries) {
          const req = await ROUTE_SAMPLES[entry.id].request(ctx, 'signedOut');
          const cases: Array<[string, string | undefined, number, string]> = [
            ['no key', undefined, 401, 'An API key is required: pass apiKey or the X-Api-Key header'],
            ['a wrong key', `matrixWrongKey${RUN}`, 401, UNKNOWN_API_KEY],
            ['an archived stock', archived.apiKey!, 404, STOCK_ARCHIVED],
            ['an expired subscription', expired.apiKey!, 404, SUBSCRIPTION_EXPIRED],
          ];
          for (const [what, apiKey, status, message] of cases) {
            const res = await send(entry, withKey(req, apiKey));
            if (res.status !== status || res.body?.errorMessage !== message)
              problems.push(`${entry.id} with ${what}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
        expect(problems).toEqual([]);
        expect(await widgetState()).toEqual(before);
      });

      it("a key reads its own stock's data, never another stock's", async () => {
        const { A, B, announcementA, announcementB } = ctx;
        const w = (path: string, stock: Stock) =>
          http.get(`${path}${path.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(stock.apiKey!)}`);
        expect((await w('/api/widget/stock', A)).body.combinedTicker).toBe(A.combinedTicker);
        expect((await w('/api/widget/stock', B)).body.combinedTicker).toBe(B.combinedTicker);

        const guids = async (stock: Stock) =>
          (
            (await w('/api/widget/announcements', stock)).body.announcements as Array<{ sendGuid: string }>
          ).map((a) => a.sendGuid);
        const [onA, onB] = [await guids(A), await guids(B)];
        expect(onA).toContain(announcementA);
        expect(onA).not.toContain(announcementB);
        expect(onB).toEqual([announcementB]);

        expect((await w(`/api/widget/announcement?sendGuid=${announcementB}`, A)).status).toBe(404);
        expect((await w(`/api/widget/announcement?sendGuid=${announcementB}`, B)).status).toBe(200);
        const foreignComments = await w(`/api/widget/comments?sendGuid=${announcementB}`, A);
        expect(foreignComments.status).toBe(404);
        const groups = (await w('/api/widget/comment-groups', A)).body.commentGroups as Array<
          Record<string, unknown>
        >;
        expect(JSON.stringify(groups)).not.toContain(announcementB);

        const commentsOnB = async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM announcements.comments WHERE stock_id = $1`,
              [B.id],
            )
          ).rows[0].n;
        const commentsBefore = await commentsOnB();
        const posted = await post(`/api/widget/comments?apiKey=${A.apiKey}`, {
          sendGuid: announcementB,
          name: 'Pat Investor',
          email: 'pat@investor.example',
          comment: 'Posted with the other stock key',
        });
        expect(posted.status).toBe(404);
        expect(await commentsOnB()).toBe(commentsBefore);

        const email = `cross-${RUN.toLowerCase()}@example.com`;
        expect((await post(`/api/widget/subscribe?apiKey=${A.apiKey}`, { email })).status).toBe(200);
        const listOf = async (stock: Stock) =>
          (
            (await ctx.adminGet(`/api/admin/subscribers?combinedTicker=${stock.combinedTicker}`)) as {
              subscribers: Array<{ email: string }>;
            }
          ).subscribers.map((s) => s.email);
        expect(await listOf(A)).toContain(email);
        expect(await listOf(B)).not.toContain(email);
      });
    });
  });
}
