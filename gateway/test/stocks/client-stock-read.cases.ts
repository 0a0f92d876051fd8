import { STOCK_ROLES, StockRole, Topics } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { seedTestUsers } from '../gateway-harness';
import { PASSWORD, StocksRun, T } from './stocks-harness';

/** A client reads the stock form of a stock it holds a role on. */
export function clientStockReadCases(t: StocksRun) {
  const { sessions, signIn, get, createStock } = t;
  describe('GET /api/ClientStock/', () => {
    it('gives a role holder the client form with their roles and null composed fields', async () => {
      const res = await get(`/api/ClientStock/?combinedTicker=${t.A.combinedTicker}`, 'tclient');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: t.A.id,
        combinedTicker: t.A.combinedTicker,
        companyName: 'Alpha Resources',
        apiKey: t.A.apiKey,
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
      const viewer = await get(`/api/ClientStock?combinedTicker=${t.A.combinedTicker}`, 'tviewer');
      expect(viewer.status).toBe(200);
      expect(viewer.body.roles).toEqual([StockRole.EditAnnouncements]);
      expect(viewer.body).toMatchObject({ id: t.A.id, companyName: 'Alpha Resources' });
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
      const admin = await get(`/api/ClientStock/?combinedTicker=${t.C.combinedTicker}`, 'admin');
      expect(admin.status).toBe(200);
      expect(admin.body.roles).toEqual([...STOCK_ROLES]);
      expect(admin.body).toMatchObject({
        apiKey: t.C.apiKey,
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
      await seedTestUsers(PASSWORD, [
        { username: 'stocks-test-stale', stockRoles: { [mine.id]: [StockRole.ViewConfig] } },
      ]);
      sessions.stale = await signIn('stocks-test-stale', PASSWORD);
      // Warms this gateway's combinedTicker -> id cache with T('M') -> mine.
      const warm = await get(`/api/ClientStock/?combinedTicker=${mine.combinedTicker}`, 'stale');
      expect(warm.status).toBe(200);

      // Another gateway instance renames it (this one's cache is not told), and a new stock, nobody's,
      // takes the old name.
      await t.otherGateway.request(Topics.StocksChangeTicker, {
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
}
