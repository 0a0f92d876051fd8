import { DEMO_STOCK_IDS, STOCK_ROLES, StockRole, Topics, WidgetStockSchema } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import {
  A,
  B,
  C,
  D,
  PASSWORD,
  RATE_LIMIT,
  T,
  createStock,
  get,
  http,
  newApiKey,
  otherGateway,
  post,
  sessions,
  useStocksGateway,
} from './stocks-routes.harness';

/**
 * Contract tests of the clients' stocks routes (docs/api/stocks.md): reading and saving the client stock
 * form by role, the client dashboard, the demo client on the demo stocks, and the public widget API.
 * Setup: stocks-routes.harness.ts.
 */

describe('gateway stocks routes of the clients: their stock form, dashboard and the widget', () => {
  useStocksGateway();

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/ClientStock/', () => {
    it('gives a role holder the client form with their roles and null composed fields', async () => {
      const res = await get(`/api/ClientStock/?combinedTicker=${A.combinedTicker}`, 'tclient');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: A.id,
        combinedTicker: A.combinedTicker,
        companyName: 'Alpha Resources',
        apiKey: A.apiKey,
        confirmationEmail: 'ir@alpha.example.com',
        completedInitialPoll: true,
        emailMarketing: null,
      });
      expect(res.body.roles.sort()).toEqual(
        [StockRole.EditAnnouncements, StockRole.ReplyToComment, StockRole.ViewConfig].sort(),
      );
      expect(res.body).not.toHaveProperty('accountingReference');
      // No Invoicing on A: the invoice columns are not sent at all (least privilege, the route's entry).
      for (const field of ['invoiceId', 'invoiceTotal', 'invoiceStatus', 'invoiceDate', 'invoiceNumber'])
        expect(res.body).not.toHaveProperty(field);
    });

    it('lets any role on the stock read it, showing only what that role allows; an admin gets every role and field', async () => {
      const viewer = await get(`/api/ClientStock?combinedTicker=${A.combinedTicker}`, 'tviewer');
      expect(viewer.status).toBe(200);
      expect(viewer.body.roles).toEqual([StockRole.EditAnnouncements]);
      expect(viewer.body).toMatchObject({ id: A.id, companyName: 'Alpha Resources' });
      // EditAnnouncements alone: no configuration (ViewConfig), moderator (ReplyToComment) or invoice fields.
      for (const field of [
        'apiKey',
        'confirmationEmail',
        'contactEmail',
        'autoSendFilter',
        'moderatorEmail',
        'invoiceId',
      ])
        expect(viewer.body).not.toHaveProperty(field);
      const admin = await get(`/api/ClientStock/?combinedTicker=${C.combinedTicker}`, 'admin');
      expect(admin.status).toBe(200);
      expect(admin.body.roles).toEqual([...STOCK_ROLES]);
      expect(admin.body).toMatchObject({
        apiKey: C.apiKey,
        invoiceId: null,
        moderatorEmail: expect.anything(),
      });
    });

    it('refuses a missing combinedTicker with 400 and an unknown stock with 404', async () => {
      const missing = await get('/api/ClientStock/', 'tclient');
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toBe('combinedTicker is required');
      const adminMissing = await get('/api/ClientStock/', 'admin');
      expect(adminMissing.status).toBe(400);
      expect(adminMissing.body.errorMessage).toBe('combinedTicker: Required');
      const unknown = await get('/api/ClientStock/?combinedTicker=NOSUCH9:ASX', 'tclient');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
      // 37 characters are 41 with :ASX: longer than any stock's name, so not found (not a 400 that
      // names the service's topic).
      const long = 'L'.repeat(37);
      const tooLong = await get(`/api/ClientStock/?combinedTicker=${long}`, 'tclient');
      expect(tooLong.status).toBe(404);
      expect(tooLong.body.errorMessage).toBe(`Stock ${long} not found`);
    });

    it('refuses 403 when a stale combinedTicker answer would show another stock (ticker changed elsewhere)', async () => {
      const mine = await createStock({ ticker: T('M'), companyName: 'Mine' });
      await seedTestUsers([
        { username: 'stocks-test-stale', stockRoles: { [mine.id]: [StockRole.ViewConfig] } },
      ]);
      sessions.stale = await signIn('stocks-test-stale', PASSWORD);
      // Warms this gateway's combinedTicker -> id cache with T('M') -> mine.
      const warm = await get(`/api/ClientStock/?combinedTicker=${mine.combinedTicker}`, 'stale');
      expect(warm.status).toBe(200);

      // Another gateway instance renames it (this one's cache is not told), and a new stock, nobody's,
      // takes the old name.
      await otherGateway.request(Topics.StocksChangeTicker, {
        actor: actor({ id: '11111111-1111-4111-8111-111111111111', username: 'admin', roles: ['Admin'] }),
        exchange: 'ASX',
        ticker: mine.ticker,
        newTicker: T('N'),
      });
      const other = await createStock({
        ticker: T('M'),
        companyName: 'Not yours',
        accountingReference: 'SECRET-M',
      });
      expect(other.id).not.toBe(mine.id);

      const res = await get(`/api/ClientStock/?combinedTicker=${mine.combinedTicker}`, 'stale');
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toBe(
        `You do not have the ${STOCK_ROLES.join(' or ')} permission on ${mine.combinedTicker}`,
      );
      expect(res.text).not.toContain('Not yours');
      expect(res.text).not.toContain(other.id);
      // Its own stock under the new name is still readable.
      const renamed = await get(`/api/ClientStock/?combinedTicker=${T('N')}:ASX`, 'stale');
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).toBe(mine.id);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/ClientStock', () => {
    it('saves the client subset and answers the client form', async () => {
      const res = await post(
        '/api/ClientStock',
        {
          combinedTicker: A.combinedTicker,
          companyName: 'Alpha Resources Ltd',
          confirmationEmail: 'ir@alpha.example.com; cfo@alpha.example.com',
          sendPriceSensitiveAnnouncements: true,
          moderatorEmail: 'mod@alpha.example.com',
        },
        'tclient',
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: {
          id: A.id,
          companyName: 'Alpha Resources Ltd',
          confirmationEmail: 'ir@alpha.example.com; cfo@alpha.example.com',
          sendPriceSensitiveAnnouncements: true,
          moderatorEmail: 'mod@alpha.example.com',
          emailMarketing: null,
        },
      });
      expect(res.body.stock.roles).toContain(StockRole.ReplyToComment);
      const history = await get(`/api/admin/getStockVersionHistory?ticker=${A.combinedTicker}`, 'admin');
      expect(history.body[0].changedBy).toBe('stocks-test-client');
    });

    it('refuses any field outside the client subset with 400 naming it', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: A.combinedTicker, companyName: 'x', apiKey: 'stolen', pollAsx: true },
        'tclient',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Not allowed in a client save: apiKey, pollAsx',
      });
    });

    it('refuses an invalid email with the service rule', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: A.combinedTicker, contactEmail: 'not-an-email' },
        'tclient',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, stock: null });
      expect(res.body.errorMessage).toMatch(/^Invalid email address in .*: not-an-email$/);
    });

    it('needs ReplyToComment for moderator emails, logo and comment template (403)', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: B.combinedTicker, companyLogoUrl: 'https://beta.example.com/logo.png' },
        'tclient',
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: `You need the ReplyToComment permission on ${B.combinedTicker} to change moderator emails, the company logo or the comment template`,
      });
      const ok = await post(
        '/api/ClientStock',
        { combinedTicker: B.combinedTicker, websiteUrl: 'beta.example.com' },
        'tclient',
      );
      expect(ok.status).toBe(200);
      expect(ok.body.stock.websiteUrl).toBe('beta.example.com');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/clientDashboard/', () => {
    it("lists the user's stocks from their stockRoles, archived ones left out", async () => {
      const res = await get('/api/clientDashboard/', 'tclient');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['stocks']);
      expect(res.body.stocks.map((s: { id: string }) => s.id).sort()).toEqual([A.id, B.id].sort());
      const a = res.body.stocks.find((s: { id: string }) => s.id === A.id);
      expect(a).toMatchObject({
        combinedTicker: A.combinedTicker,
        apiKey: A.apiKey,
        emailMarketing: null,
      });
      expect(a.roles).toContain(StockRole.ViewConfig);
      // No Invoicing on A: no invoice columns.
      expect(a).not.toHaveProperty('invoiceId');
    });

    it('is empty for a user without stock roles', async () => {
      const res = await get('/api/clientDashboard', 'reports');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ stocks: [] });
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('the demo client on the demo stocks (users and stocks seeds)', () => {
    it('reads BHP:ASX with its roles there', async () => {
      const res = await get('/api/ClientStock/?combinedTicker=BHP:ASX', 'client');
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(DEMO_STOCK_IDS[0]);
      expect(res.body.roles).toEqual(
        expect.arrayContaining([StockRole.ViewConfig, StockRole.ReplyToComment]),
      );
    });

    it('may not change the logo of VOD:LSE, where it holds only ViewConfig (403)', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: 'VOD:LSE', companyLogoUrl: 'https://example.com/other.png' },
        'client',
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage:
          'You need the ReplyToComment permission on VOD:LSE to change moderator emails, the company logo or the comment template',
      });
    });

    it('sees both demo stocks on its dashboard and none of this run', async () => {
      const res = await get('/api/clientDashboard/', 'client');
      expect(res.status).toBe(200);
      const ids = res.body.stocks.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([...DEMO_STOCK_IDS]));
      expect(ids).not.toContain(A.id);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/widget/stock (public)', () => {
    const widget = (query = '') =>
      http.get(`/api/widget/stock${query}`).set('Origin', 'https://client.example.com');

    it('answers the stock of a key given as ?apiKey or X-Api-Key, with CORS *', async () => {
      const byQuery = await widget(`?apiKey=${A.apiKey}`);
      expect(byQuery.status).toBe(200);
      expect(byQuery.headers['access-control-allow-origin']).toBe('*');
      expect(byQuery.headers['access-control-allow-credentials']).toBeUndefined();
      expect(WidgetStockSchema.strict().parse(byQuery.body)).toEqual({
        ticker: A.ticker,
        exchange: 'ASX',
        combinedTicker: A.combinedTicker,
        isin: '',
        companyName: 'Alpha Resources Ltd',
        websiteUrl: 'alpha.example.com',
        companyLogoUrl: '',
      });
      const byHeader = await widget().set('X-Api-Key', B.apiKey!);
      expect(byHeader.status).toBe(200);
      expect(byHeader.body.combinedTicker).toBe(B.combinedTicker);
    });

    it('answers the preflight: GET with the X-Api-Key header, any origin, no credentials', async () => {
      const res = await http
        .options('/api/widget/stock')
        .set('Origin', 'https://client.example.com')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'x-api-key');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain('GET');
      expect(res.headers['access-control-allow-headers']).toMatch(/X-Api-Key/i);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers 401 without a key or with an unknown one, with CORS *', async () => {
      const none = await widget();
      expect(none.status).toBe(401);
      expect(none.headers['access-control-allow-origin']).toBe('*');
      expect(none.body.errorMessage).toBe('An API key is required: pass apiKey or the X-Api-Key header');
      const unknown = await widget('?apiKey=no-such-key-at-all');
      expect(unknown.status).toBe(401);
      expect(unknown.headers['access-control-allow-origin']).toBe('*');
      expect(unknown.body.errorMessage).toBe('Unknown API key');
      // Keys no stock can have are refused before any counting: no rate headers.
      for (const key of ['k'.repeat(101), 'has%20space', 'dot.key']) {
        const malformed = await widget(`?apiKey=${key}`);
        expect(malformed.status).toBe(401);
        expect(malformed.body.errorMessage).toBe('Unknown API key');
        expect(malformed.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it('answers 404 for an archived stock', async () => {
      const res = await widget(`?apiKey=${D.apiKey}`);
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.errorMessage).toBe('This stock is archived');
    });

    it('records the referer without query or fragment, and counts the hit', async () => {
      const before = await get('/api/admin/referers', 'admin');
      const hitsBefore =
        before.body.find((s: { combinedTicker: string }) => s.combinedTicker === C.combinedTicker)?.hits ?? 0;
      const res = await widget(`?apiKey=${C.apiKey}`).set(
        'Referer',
        'https://investors.gamma.example.com/shares?visitor=42#chart',
      );
      expect(res.status).toBe(200);
      await widget(`?apiKey=${C.apiKey}`).set('Referer', 'javascript:alert(1)');

      const referers = await get(`/api/admin/stockReferers?ticker=${C.combinedTicker}`, 'admin');
      expect(referers.status).toBe(200);
      expect(referers.body).toEqual([
        {
          url: 'https://investors.gamma.example.com/shares',
          count: 1,
          first: expect.any(String),
          last: expect.any(String),
        },
      ]);
      const all = await get('/api/admin/referers', 'admin');
      expect(all.status).toBe(200);
      const gamma = all.body.find((s: { combinedTicker: string }) => s.combinedTicker === C.combinedTicker);
      expect(gamma).toMatchObject({ ticker: C.ticker, exchange: 'ASX', hits: hitsBefore + 2 });
      expect(gamma.referers.map((r: { url: string }) => r.url)).toEqual([
        'https://investors.gamma.example.com/shares',
      ]);
    });

    it(`limits a key to ${RATE_LIMIT} requests a window: 429 with Retry-After, other keys unaffected`, async () => {
      const stock = await createStock({ ticker: T('R'), apiKey: await newApiKey() });
      for (let i = 0; i < RATE_LIMIT; i++) expect((await widget(`?apiKey=${stock.apiKey}`)).status).toBe(200);
      const limited = await widget().set('X-Api-Key', stock.apiKey!);
      expect(limited.status).toBe(429);
      expect(limited.headers['access-control-allow-origin']).toBe('*');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.body.errorMessage).toBe(
        `Too many requests for this API key: at most ${RATE_LIMIT} every 60 seconds. Please retry after ${retryAfter} seconds.`,
      );
      expect((await widget(`?apiKey=${B.apiKey}`)).status).toBe(200);
    });

    it('gives CORS headers on unknown widget paths too', async () => {
      const res = await http.get('/api/widget/nothing-here').set('Origin', 'https://client.example.com');
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });
  });
});
