import { EXCHANGE_DIRECTORY } from '@irp/proto';
import { StocksRun } from './stocks-harness';

/** A new API key, and the exchanges a stock can be on. */
export function apiKeyAndExchangesCases(t: StocksRun) {
  const { get, newApiKey } = t;
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
}
