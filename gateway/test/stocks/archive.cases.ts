import { StocksRun, T } from './stocks-harness';

/** An admin archives or restores a stock. */
export function archiveCases(t: StocksRun) {
  const { post, createStock } = t;
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
      const bad = await post('/api/admin/archiveStock', { ticker: t.A.ticker, archived: 'yes' }, 'admin');
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
}
