import { StockSchema } from '@irp/proto';
import { StocksRun, sydneyYear, T } from './stocks-harness';

/** An admin creates or updates a stock. */
export function adminStockSaveCases(t: StocksRun) {
  const { post } = t;
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
        { ...t.B, companyName: 'Beta Minerals Ltd', created: '1999-01-01T00:00:00.000Z', version: 99 },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body.stock).toMatchObject({
        id: t.B.id,
        companyName: 'Beta Minerals Ltd',
        created: t.B.created,
      });
      expect(res.body.stock.version).toBe(t.B.version + 1);
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
      const duplicate = await post('/api/admin/stocks', { ticker: t.A.ticker }, 'admin');
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: `A stock with ticker ${t.A.ticker} already exists on ASX`,
      });
      const badId = await post('/api/admin/stocks', { id: 'nope', ticker: T('G') }, 'admin');
      expect(badId.status).toBe(400);
      expect(badId.body.errorMessage).toBe('id: Invalid uuid');
    });
  });
}
