import { StocksRun, SUMMARY_KEYS } from './stocks-harness';

/** The admin stock list: every field for an admin, the summary for a report-runner. */
export function adminStockListCases(t: StocksRun) {
  const { get } = t;
  describe('GET /api/admin/stocks', () => {
    it('gives an admin every stock; a composed column whose service does not answer is null and named', async () => {
      const res = await get('/api/admin/stocks?startDate=2026-01-01&endDate=2026-01-31', 'admin');
      expect(res.status).toBe(200);
      // The body is the list (spec section 7); the services that did not answer are named in a header.
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.headers['x-unavailable-services']).toBe('email-marketing, invoicing');
      const row = res.body.find((s: { id: string }) => s.id === t.A.id);
      expect(row).toEqual({
        id: t.A.id,
        ticker: t.A.ticker,
        exchange: 'ASX',
        combinedTicker: `${t.A.ticker}:ASX`,
        companyName: 'Alpha Resources',
        created: t.A.created,
        websiteUrl: 'alpha.example.com',
        archived: false,
        apiKey: t.A.apiKey,
        pollAsx: false,
        subscriptionExpired: false,
        emailMarketing: null,
        invoice: null,
        repeatingInvoice: null,
      });
      expect(res.body.find((s: { id: string }) => s.id === t.D.id)?.archived).toBe(true);
    });

    it('gives a report-runner only the summary fields, stripped on the server', async () => {
      const res = await get('/api/admin/stocks', 'reports');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.headers['x-unavailable-services']).toBe('');
      for (const row of res.body) expect(Object.keys(row).sort()).toEqual(SUMMARY_KEYS);
      expect(res.text).not.toContain(t.A.apiKey!);
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
}
