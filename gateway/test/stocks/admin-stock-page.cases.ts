import { AdminStockPageSchema } from '@irp/proto';
import { StocksRun, SUMMARY_KEYS } from './stocks-harness';

/** One stock's page for an admin or a report-runner (without the announcements service). */
export function adminStockPageCases(t: StocksRun) {
  const { get } = t;
  describe('GET /api/stock/{combinedTicker}', () => {
    it('gives an admin the whole stock (a bare ticker means ASX)', async () => {
      const res = await get(`/api/stock/${t.A.ticker}`, 'admin');
      expect(res.status).toBe(200);
      expect(AdminStockPageSchema.parse(res.body)).toEqual(res.body);
      expect(res.body).toMatchObject({ id: t.A.id, accountingReference: 'ACC-ALPHA', apiKey: t.A.apiKey });
      // This file starts neither the announcements nor the reports service: the page answers without those parts
      // (gateway/test/announcements/stock-page.cases.ts covers the composed page).
      expect(res.body).toMatchObject({
        announcements: null,
        initialPoll: null,
        unavailable: ['announcements', 'reports'],
      });
    });

    it('gives a report-runner the summary fields plus completedInitialPoll', async () => {
      const res = await get(`/api/stock/${t.A.combinedTicker}`, 'reports');
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
}
