import { WidgetStockSchema } from '@irp/proto';
import { startTestGateway } from '../gateway-harness';
import { RATE_LIMIT, StocksRun, T } from './stocks-harness';

/** The public widget API for a stock, by API key: CORS, referers, the rate limit. */
export function widgetStockCases(t: StocksRun) {
  const { get, createStock, newApiKey } = t;
  describe('GET /api/widget/stock (public)', () => {
    const widget = (query = '') =>
      t.http.get(`/api/widget/stock${query}`).set('Origin', 'https://client.example.com');

    it('answers the stock of a key given as ?apiKey or X-Api-Key, with CORS *', async () => {
      const byQuery = await widget(`?apiKey=${t.A.apiKey}`);
      expect(byQuery.status).toBe(200);
      expect(byQuery.headers['access-control-allow-origin']).toBe('*');
      expect(byQuery.headers['access-control-allow-credentials']).toBeUndefined();
      expect(WidgetStockSchema.strict().parse(byQuery.body)).toEqual({
        ticker: t.A.ticker,
        exchange: 'ASX',
        combinedTicker: t.A.combinedTicker,
        isin: '',
        companyName: 'Alpha Resources Ltd',
        websiteUrl: 'alpha.example.com',
        companyLogoUrl: '',
      });
      const byHeader = await widget().set('X-Api-Key', t.B.apiKey!);
      expect(byHeader.status).toBe(200);
      expect(byHeader.body.combinedTicker).toBe(t.B.combinedTicker);
    });

    it('answers the preflight: GET with the X-Api-Key header, any origin, no credentials', async () => {
      const res = await t.http
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
      const res = await widget(`?apiKey=${t.D.apiKey}`);
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.errorMessage).toBe('This stock is archived');
    });

    it('records the referer without query or fragment, and counts the hit', async () => {
      const before = await get('/api/admin/referers', 'admin');
      const hitsBefore =
        before.body.find((s: { combinedTicker: string }) => s.combinedTicker === t.C.combinedTicker)?.hits ??
        0;
      const res = await widget(`?apiKey=${t.C.apiKey}`).set(
        'Referer',
        'https://investors.gamma.example.com/shares?visitor=42#chart',
      );
      expect(res.status).toBe(200);
      await widget(`?apiKey=${t.C.apiKey}`).set('Referer', 'javascript:alert(1)');

      const referers = await get(`/api/admin/stockReferers?ticker=${t.C.combinedTicker}`, 'admin');
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
      const gamma = all.body.find((s: { combinedTicker: string }) => s.combinedTicker === t.C.combinedTicker);
      expect(gamma).toMatchObject({ ticker: t.C.ticker, exchange: 'ASX', hits: hitsBefore + 2 });
      expect(gamma.referers.map((r: { url: string }) => r.url)).toEqual([
        'https://investors.gamma.example.com/shares',
      ]);
    });

    it(`limits a key to ${RATE_LIMIT} requests a window however many gateways serve it: 429 with Retry-After, other keys unaffected`, async () => {
      const stock = await createStock({ ticker: T('R'), apiKey: await newApiKey() });
      // A second gateway instance on the same database: the key's budget is one, shared (issue 18).
      const second = await startTestGateway({
        WIDGET_RATE_LIMIT: String(RATE_LIMIT),
        WIDGET_RATE_WINDOW_MS: '60000',
      });
      try {
        for (let i = 0; i < RATE_LIMIT; i++) {
          const via = i % 2 ? second.http : t.http;
          expect((await via.get(`/api/widget/stock?apiKey=${stock.apiKey}`)).status).toBe(200);
        }
        expect((await second.http.get(`/api/widget/stock?apiKey=${stock.apiKey}`)).status).toBe(429);
      } finally {
        await second.gateway.close();
      }
      const limited = await widget().set('X-Api-Key', stock.apiKey!);
      expect(limited.status).toBe(429);
      expect(limited.headers['access-control-allow-origin']).toBe('*');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.body.errorMessage).toBe(
        `Too many requests for this API key: at most ${RATE_LIMIT} every 60 seconds. Please retry after ${retryAfter} seconds.`,
      );
      expect((await widget(`?apiKey=${t.B.apiKey}`)).status).toBe(200);
    });

    it('gives CORS headers on unknown widget paths too', async () => {
      const res = await t.http.get('/api/widget/nothing-here').set('Origin', 'https://client.example.com');
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });
  });
}
