import { StockRole } from '@irp/proto';
import { seedTestUsers } from '../gateway-harness';
import { PASSWORD, StocksRun, T } from './stocks-harness';

/** An admin changes a stock's ticker. */
export function changeTickerCases(t: StocksRun) {
  const { sessions, signIn, get, post, createStock } = t;
  describe('POST /api/admin/changeTicker', () => {
    it('changes the ticker; the old combinedTicker is gone at once, even for a cached client check', async () => {
      const stock = await createStock({ ticker: T('H'), companyName: 'Eta' });
      await seedTestUsers(PASSWORD, [
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
      const missing = await post('/api/admin/changeTicker', { exchange: 'ASX', ticker: t.A.ticker }, 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'newTicker: Required',
      });
      const same = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: t.A.ticker, newTicker: t.A.ticker },
        'admin',
      );
      expect(same.status).toBe(400);
      expect(same.body.errorMessage).toBe('The new ticker is the same as the current one');
      const invalid = await post(
        '/api/admin/changeTicker',
        { exchange: 'ASX', ticker: t.A.ticker, newTicker: 'x!' },
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
}
