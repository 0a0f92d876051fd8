import { STOCK_ROLES } from '@irp/proto';
import request from 'supertest';
import { StocksRun, T } from './stocks-harness';

/** Every stocks route: signed out 401, the wrong role 403, a refused change changing nothing. */
export function routeRefusalCases(t: StocksRun) {
  const { sessions, get, post } = t;
  describe('every route: signed out 401, wrong role 403', () => {
    const ticker = () => t.A.combinedTicker;
    /**
     * What a refused state change could have touched, read back as an admin: A (change ticker, archive),
     * C (client save) and the stock the refused create names.
     */
    const stockState = async () =>
      Promise.all(
        [t.A.combinedTicker, t.C.combinedTicker, `${T('X')}:ASX`].map(async (name) => {
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
          post('/api/admin/changeTicker', { exchange: 'ASX', ticker: t.A.ticker, newTicker: T('Z') }, w),
        wrong: ['reports', 'client', 'tclient'],
        save: true,
      },
      {
        name: 'POST /api/admin/archiveStock',
        call: (w) => post('/api/admin/archiveStock', { exchange: 'ASX', ticker: t.A.ticker }, w),
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
        call: (w) => get(`/api/ClientStock/?combinedTicker=${t.C.combinedTicker}`, w),
        wrong: ['client', 'tclient', 'reports'],
      },
      {
        name: 'POST /api/ClientStock',
        call: (w) =>
          post('/api/ClientStock', { combinedTicker: t.C.combinedTicker, companyName: 'Hijacked' }, w),
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
        (await get(`/api/ClientStock/?combinedTicker=${t.C.combinedTicker}`, 'client')).body.errorMessage,
      ).toBe(`You do not have the ${STOCK_ROLES.join(' or ')} permission on ${t.C.combinedTicker}`);
      expect(
        (await post('/api/ClientStock', { combinedTicker: t.A.combinedTicker, companyName: 'x' }, 'tviewer'))
          .body.errorMessage,
      ).toBe(`You do not have the ViewConfig permission on ${t.A.combinedTicker}`);
    });

    it('refuses a state change without the CSRF header', async () => {
      const res = await t.http
        .post('/api/admin/stocks')
        .set('Cookie', sessions.admin.cookie)
        .send({ ticker: T('Q') });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, stock: null });
      expect(res.body.errorMessage).toMatch(/CSRF/);
    });
  });
}
