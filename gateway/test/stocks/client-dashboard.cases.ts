import { StockRole } from '@irp/proto';
import { StocksRun } from './stocks-harness';

/** A client's dashboard: the stocks it holds roles on. */
export function clientDashboardCases(t: StocksRun) {
  const { get } = t;
  describe('GET /api/clientDashboard/', () => {
    it("lists the user's stocks from their stockRoles, archived ones left out", async () => {
      const res = await get('/api/clientDashboard/', 'tclient');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['stocks']);
      expect(res.body.stocks.map((s: { id: string }) => s.id).sort()).toEqual([t.A.id, t.B.id].sort());
      const a = res.body.stocks.find((s: { id: string }) => s.id === t.A.id);
      expect(a).toMatchObject({
        combinedTicker: t.A.combinedTicker,
        apiKey: t.A.apiKey,
        emailMarketing: null,
      });
      expect(a.roles).toContain(StockRole.ViewConfig);
      // No Invoicing on A: no invoice columns.
      expect(a).not.toHaveProperty('invoiceId');
    });

    it('is empty for a user without stock roles', async () => {
      const res = await get('/api/clientDashboard', 'reports');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ stocks: [] });
    });
  });
}
