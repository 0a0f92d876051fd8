import { AdminStockPageSchema, EXCHANGE_DIRECTORY, STOCK_ROLES, StockRole, StockSchema } from '@irp/proto';
import request from 'supertest';
import {
  A,
  B,
  C,
  D,
  PASSWORD,
  SUMMARY_KEYS,
  T,
  createStock,
  get,
  http,
  newApiKey,
  post,
  sessions,
  sydneyYear,
  useStocksGateway,
} from './stocks-routes.harness';

/**
 * Contract tests of the staff's stocks routes (docs/api/stocks.md): every route signed out 401 and the
 * wrong role 403; the admin list, save, stock page, change ticker, archive, API keys and exchanges; notes,
 * version history and referers; the OpenAPI document. Setup: stocks-routes.harness.ts.
 */

describe('gateway stocks routes of the staff: roles, admin stocks, ticker, archive, keys, notes', () => {
  useStocksGateway();

  // -------------------------------------------------------------------------------------------------
  describe('every route: signed out 401, wrong role 403', () => {
    const ticker = () => A.combinedTicker;
    /**
     * What a refused state change could have touched, read back as an admin: A (change ticker, archive),
     * C (client save) and the stock the refused create names.
     */
    const stockState = async () =>
      Promise.all(
        [A.combinedTicker, C.combinedTicker, `${T('X')}:ASX`].map(async (name) => {
          const res = await get(`/api/stock/${name}`, 'admin');
          return { name, status: res.status, stock: res.body as unknown };
        }),
      );
    const routes: Array<{
      name: string;
      call: (who?: string) => request.Test;
      wrong: string[];
      save?: boolean;
    }> = [
      {
        name: 'GET /api/admin/stocks',
        call: (w) => get('/api/admin/stocks', w),
        wrong: ['client', 'useradmin'],
      },
      {
        name: 'POST /api/admin/stocks',
        call: (w) => post('/api/admin/stocks', { ticker: T('X') }, w),
        wrong: ['reports', 'client', 'useradmin'],
        save: true,
      },
      {
        name: 'GET /api/stock/{combinedTicker}',
        call: (w) => get(`/api/stock/${ticker()}`, w),
        wrong: ['client', 'useradmin'],
      },
      {
        name: 'POST /api/admin/changeTicker',
        call: (w) =>
          post('/api/admin/changeTicker', { exchange: 'ASX', ticker: A.ticker, newTicker: T('Z') }, w),
        wrong: ['reports', 'client', 'tclient'],
        save: true,
      },
      {
        name: 'POST /api/admin/archiveStock',
        call: (w) => post('/api/admin/archiveStock', { exchange: 'ASX', ticker: A.ticker }, w),
        wrong: ['reports', 'client', 'tclient'],
        save: true,
      },
      {
        name: 'GET /api/admin/apiKey',
        call: (w) => get('/api/admin/apiKey', w),
        wrong: ['reports', 'client'],
      },
      {
        name: 'GET /api/admin/exchanges/',
        call: (w) => get('/api/admin/exchanges/', w),
        wrong: ['reports', 'client'],
      },
      {
        name: 'GET /api/ClientStock/',
        call: (w) => get(`/api/ClientStock/?combinedTicker=${C.combinedTicker}`, w),
        wrong: ['client', 'tclient', 'reports'],
      },
      {
        name: 'POST /api/ClientStock',
        call: (w) =>
          post('/api/ClientStock', { combinedTicker: C.combinedTicker, companyName: 'Hijacked' }, w),
        wrong: ['client', 'tclient', 'reports'],
        save: true,
      },
      { name: 'GET /api/clientDashboard/', call: (w) => get('/api/clientDashboard/', w), wrong: [] },
      {
        name: 'GET /api/admin/getNotes',
        call: (w) => get(`/api/admin/getNotes?ticker=${ticker()}`, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'POST /api/admin/saveNote',
        call: (w) => post('/api/admin/saveNote', { ticker: ticker(), details: 'x' }, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'GET /api/admin/getStockVersionHistory',
        call: (w) => get(`/api/admin/getStockVersionHistory?ticker=${ticker()}`, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'GET /api/admin/stockReferers',
        call: (w) => get(`/api/admin/stockReferers?ticker=${ticker()}`, w),
        wrong: ['reports', 'tclient'],
      },
      {
        name: 'GET /api/admin/referers',
        call: (w) => get('/api/admin/referers', w),
        wrong: ['reports', 'client'],
      },
    ];

    it.each(routes.map((r) => [r.name, r] as const))('%s: signed out is 401', async (_, route) => {
      const before = route.save ? await stockState() : undefined;
      const res = await route.call();
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'Not signed in',
        errorMessage: 'Not signed in',
      });
      if (route.save) {
        expect(res.body).toMatchObject({ success: false, stock: null });
        expect(await stockState()).toEqual(before);
      }
    });

    it.each(routes.filter((r) => r.wrong.length).map((r) => [r.name, r] as const))(
      '%s: the wrong role is 403',
      async (_, route) => {
        const before = route.save ? await stockState() : undefined;
        for (const who of route.wrong) {
          const res = await route.call(who);
          expect({ who, status: res.status }).toEqual({ who, status: 403 });
          expect(res.body.error).toBe('Forbidden');
          expect(res.body.errorMessage).toMatch(/This needs the Admin|You do not have the/);
          if (route.save) expect(res.body).toMatchObject({ success: false, stock: null });
        }
        // Refused means nothing changed: same stocks, same versions, no stock created.
        if (route.save) {
          const after = await stockState();
          expect(after).toEqual(before);
          expect(after.map((s) => s.status)).toEqual([200, 200, 404]);
        }
      },
    );

    it('names the missing role or permission', async () => {
      expect((await get('/api/admin/apiKey', 'reports')).body.errorMessage).toBe('This needs the Admin role');
      expect((await get('/api/admin/stocks', 'client')).body.errorMessage).toBe(
        'This needs the Admin or RunReports role',
      );
      expect(
        (await get(`/api/ClientStock/?combinedTicker=${C.combinedTicker}`, 'client')).body.errorMessage,
      ).toBe(`You do not have the ${STOCK_ROLES.join(' or ')} permission on ${C.combinedTicker}`);
      expect(
        (await post('/api/ClientStock', { combinedTicker: A.combinedTicker, companyName: 'x' }, 'tviewer'))
          .body.errorMessage,
      ).toBe(`You do not have the ViewConfig permission on ${A.combinedTicker}`);
    });

    it('refuses a state change without the CSRF header', async () => {
      const res = await http
        .post('/api/admin/stocks')
        .set('Cookie', sessions.admin.cookie)
        .send({ ticker: T('Q') });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, stock: null });
      expect(res.body.errorMessage).toMatch(/CSRF/);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/admin/stocks', () => {
    it('gives an admin every stock; a composed column whose service does not answer is null and named', async () => {
      const res = await get('/api/admin/stocks?startDate=2026-01-01&endDate=2026-01-31', 'admin');
      expect(res.status).toBe(200);
      expect(res.body.unavailable).toEqual(['email-marketing']);
      const row = res.body.stocks.find((s: { id: string }) => s.id === A.id);
      expect(row).toEqual({
        id: A.id,
        ticker: A.ticker,
        exchange: 'ASX',
        combinedTicker: `${A.ticker}:ASX`,
        companyName: 'Alpha Resources',
        created: A.created,
        websiteUrl: 'alpha.example.com',
        archived: false,
        apiKey: A.apiKey,
        pollAsx: false,
        subscriptionExpired: false,
        emailMarketing: null,
        invoice: null,
        repeatingInvoice: null,
      });
      expect(res.body.stocks.find((s: { id: string }) => s.id === D.id)?.archived).toBe(true);
    });

    it('gives a report-runner only the summary fields, stripped on the server', async () => {
      const res = await get('/api/admin/stocks', 'reports');
      expect(res.status).toBe(200);
      expect(res.body.unavailable).toEqual([]);
      for (const row of res.body.stocks) expect(Object.keys(row).sort()).toEqual(SUMMARY_KEYS);
      expect(res.text).not.toContain(A.apiKey!);
      expect(res.text).not.toContain('ACC-ALPHA');
    });

    it('refuses a date that is not ISO, or a start after the end, with 400', async () => {
      const bad = await get('/api/admin/stocks?startDate=01/02/2026', 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('startDate: must be an ISO date like 2026-01-31');
      const reversed = await get('/api/admin/stocks?startDate=2026-02-01&endDate=2026-01-01', 'admin');
      expect(reversed.status).toBe(400);
      expect(reversed.body.errorMessage).toBe('startDate: must not be after endDate (2026-01-01)');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/stocks', () => {
    it('creates a stock with the defaults and answers { success, stock, errorMessage }', async () => {
      const yearBefore = sydneyYear();
      const res = await post(
        '/api/admin/stocks',
        { ticker: ` ${T('e').toLowerCase()} `, companyName: 'Epsilon' },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, stock: expect.any(Object), errorMessage: null });
      const stock = StockSchema.parse(res.body.stock);
      expect(stock).toMatchObject({
        ticker: T('E'),
        exchange: 'ASX',
        combinedTicker: `${T('E')}:ASX`,
        companyName: 'Epsilon',
        archived: false,
        pollAsx: false,
        apiKey: null,
        version: 1,
      });
      // Sydney's year when the service created it: read on both sides, so New Year's Eve cannot flake it.
      expect([yearBefore, sydneyYear()]).toContain(stock.announcementStartYear);
    });

    it('updates by id, dropping read-only fields the web app sends back', async () => {
      const res = await post(
        '/api/admin/stocks',
        { ...B, companyName: 'Beta Minerals Ltd', created: '1999-01-01T00:00:00.000Z', version: 99 },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body.stock).toMatchObject({
        id: B.id,
        companyName: 'Beta Minerals Ltd',
        created: B.created,
      });
      expect(res.body.stock.version).toBe(B.version + 1);
    });

    it('answers errors with success: false, stock: null and the error body', async () => {
      const invalid = await post('/api/admin/stocks', { ticker: 'ab' }, 'admin');
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({
        success: false,
        stock: null,
        statusCode: 400,
        error: 'Bad Request',
        message: 'Please define a valid ticker',
        errorMessage: 'Please define a valid ticker',
      });
      const shape = await post('/api/admin/stocks', { ticker: T('F'), pollAsx: 'yes' }, 'admin');
      expect(shape.status).toBe(400);
      expect(shape.body).toMatchObject({ success: false, stock: null });
      expect(shape.body.errorMessage).toBe('pollAsx: Expected boolean, received string');
      const duplicate = await post('/api/admin/stocks', { ticker: A.ticker }, 'admin');
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: `A stock with ticker ${A.ticker} already exists on ASX`,
      });
      const badId = await post('/api/admin/stocks', { id: 'nope', ticker: T('G') }, 'admin');
      expect(badId.status).toBe(400);
      expect(badId.body.errorMessage).toBe('id: Invalid uuid');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/stock/{combinedTicker}', () => {
    it('gives an admin the whole stock (a bare ticker means ASX)', async () => {
      const res = await get(`/api/stock/${A.ticker}`, 'admin');
      expect(res.status).toBe(200);
      expect(AdminStockPageSchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toMatchObject({ id: A.id, accountingReference: 'ACC-ALPHA', apiKey: A.apiKey });
      // This file does not start the announcements service: the page answers without that part
      // (gateway/test/announcements.int-spec.ts covers the composed page).
      expect(res.body).toMatchObject({
        announcements: null,
        initialPoll: null,
        unavailable: ['announcements'],
      });
    });

    it('gives a report-runner the summary fields plus completedInitialPoll', async () => {
      const res = await get(`/api/stock/${A.combinedTicker}`, 'reports');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([...SUMMARY_KEYS, 'completedInitialPoll'].sort());
      expect(res.body.completedInitialPoll).toBe(true);
    });

    it('answers 404 for an unknown stock and 400 for a too-long name', async () => {
      const missing = await get('/api/stock/NOSUCH9:ASX', 'admin');
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
      const long = await get(`/api/stock/${'A'.repeat(41)}`, 'admin');
      expect(long.status).toBe(400);
      expect(long.body.errorMessage).toBe('combinedTicker must be at most 40 characters');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/changeTicker', () => {
    it('changes the ticker; the old combinedTicker is gone at once, even for a cached client check', async () => {
      const stock = await createStock({ ticker: T('H'), companyName: 'Eta' });
      await seedTestUsers([
        { username: 'stocks-test-renamed', stockRoles: { [stock.id]: [StockRole.ViewConfig] } },
      ]);
      sessions.renamed = await signIn('stocks-test-renamed', PASSWORD);
      // Warms the gateway's combinedTicker -> id cache.
      expect((await get(`/api/ClientStock/?combinedTicker=${stock.combinedTicker}`, 'renamed')).status).toBe(
        200,
      );

      const res = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: stock.ticker, newTicker: T('i') },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, errorMessage: null });
      expect(res.body.stock).toMatchObject({ id: stock.id, ticker: T('I'), combinedTicker: `${T('I')}:ASX` });

      const old = await get(`/api/ClientStock/?combinedTicker=${stock.combinedTicker}`, 'renamed');
      expect(old.status).toBe(404);
      expect(old.body.errorMessage).toBe(`Stock ${stock.combinedTicker} not found`);
      const renamed = await get(`/api/ClientStock/?combinedTicker=${T('I')}:ASX`, 'renamed');
      expect(renamed.status).toBe(200);
      expect(renamed.body.id).toBe(stock.id);
    });

    it('refuses bad input with success: false, stock: null', async () => {
      const missing = await post('/api/admin/changeTicker', { exchange: 'ASX', ticker: A.ticker }, 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'newTicker: Required',
      });
      const same = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: A.ticker, newTicker: A.ticker },
        'admin',
      );
      expect(same.status).toBe(400);
      expect(same.body.errorMessage).toBe('The new ticker is the same as the current one');
      const invalid = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: A.ticker, newTicker: 'x!' },
        'admin',
      );
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Please define a valid ticker',
      });
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/archiveStock', () => {
    it('toggles without archived, and sets it when given', async () => {
      const stock = await createStock({ ticker: T('J') });
      const on = await post('/api/admin/archiveStock', { exchange: 'ASX', ticker: stock.ticker }, 'admin');
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: { id: stock.id, archived: true },
      });
      const off = await post('/api/admin/archiveStock', { exchange: 'ASX', ticker: stock.ticker }, 'admin');
      expect(off.body.stock.archived).toBe(false);
      const set = await post(
        '/api/admin/archiveStock',
        { exchange: 'ASX', ticker: stock.ticker, archived: false },
        'admin',
      );
      expect(set.body.stock.archived).toBe(false);
    });

    it('refuses bad input and unknown stocks with success: false, stock: null', async () => {
      const bad = await post('/api/admin/archiveStock', { ticker: A.ticker, archived: 'yes' }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, stock: null });
      expect(bad.body.errorMessage).toBe('exchange: Required; archived: must be true or false');
      const missing = await post('/api/admin/archiveStock', { exchange: 'ASX', ticker: 'NOSUCH9' }, 'admin');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Stock NOSUCH9:ASX not found',
      });
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/admin/apiKey and /api/admin/exchanges/', () => {
    it('hands out a new key each time', async () => {
      const [a, b] = [await newApiKey(), await newApiKey()];
      expect(a).toEqual(expect.any(String));
      expect(a.length).toBeGreaterThanOrEqual(16);
      expect(a).not.toBe(b);
    });

    it('lists the exchanges (with and without the trailing slash)', async () => {
      for (const path of ['/api/admin/exchanges/', '/api/admin/exchanges']) {
        const res = await get(path, 'admin');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(EXCHANGE_DIRECTORY);
      }
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('notes, version history, referers', () => {
    it('saves notes and lists them newest first', async () => {
      const first = await post(
        '/api/admin/saveNote',
        { ticker: C.combinedTicker, details: 'First call' },
        'admin',
      );
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        note: { id: expect.any(String), date: expect.any(String), user: 'admin', details: 'First call' },
      });
      await post('/api/admin/saveNote', { ticker: C.combinedTicker, details: 'Second call' }, 'admin');
      const res = await get(`/api/admin/getNotes?ticker=${C.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      expect(res.body.map((n: { details: string }) => n.details)).toEqual(['Second call', 'First call']);
    });

    it('refuses notes without a ticker or details with 400', async () => {
      const noTicker = await get('/api/admin/getNotes', 'admin');
      expect(noTicker.status).toBe(400);
      expect(noTicker.body.errorMessage).toBe('ticker: Required');
      const noDetails = await post('/api/admin/saveNote', { ticker: C.combinedTicker }, 'admin');
      expect(noDetails.status).toBe(400);
      expect(noDetails.body.errorMessage).toBe('details: Required');
      const unknown = await post('/api/admin/saveNote', { ticker: 'NOSUCH9:ASX', details: 'x' }, 'admin');
      expect(unknown.status).toBe(404);
    });

    it('lists version history newest first, create being version 1', async () => {
      const res = await get(`/api/admin/getStockVersionHistory?ticker=${B.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      const ids = res.body.map((v: { versionId: number }) => v.versionId);
      expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
      expect(ids[ids.length - 1]).toBe(1);
      expect(res.body[ids.length - 1]).toMatchObject({ changedBy: 'admin', changes: expect.any(Array) });
      expect(res.body[ids.length - 1].changes).toEqual(
        expect.arrayContaining([
          { fieldName: 'companyName', originalValue: null, newValue: 'Beta Minerals' },
        ]),
      );
      const missing = await get('/api/admin/getStockVersionHistory', 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toBe('ticker: Required');
    });

    it('refuses the referers of no stock with 400', async () => {
      const res = await get('/api/admin/stockReferers?ticker=', 'admin');
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('ticker: Required');
    });
  });

  it('lists every stocks route in the OpenAPI document', async () => {
    const json = await http.get('/api/docs-json');
    expect(json.status).toBe(200);
    expect(Object.keys(json.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/admin/stocks',
        '/api/stock/{combinedTicker}',
        '/api/admin/changeTicker',
        '/api/admin/archiveStock',
        '/api/admin/apiKey',
        '/api/admin/exchanges',
        '/api/ClientStock',
        '/api/clientDashboard',
        '/api/admin/getNotes',
        '/api/admin/saveNote',
        '/api/admin/getStockVersionHistory',
        '/api/admin/stockReferers',
        '/api/admin/referers',
        '/api/widget/stock',
      ]),
    );
  });
});
