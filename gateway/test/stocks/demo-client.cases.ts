import { DEMO_STOCK_IDS, StockRole } from '@irp/proto';
import { StocksRun } from './stocks-harness';

/** The demo client on the demo stocks (the users and stocks seeds). */
export function demoClientCases(t: StocksRun) {
  const { get, post } = t;
  describe('the demo client on the demo stocks (users and stocks seeds)', () => {
    it('reads BHP:ASX with its roles there', async () => {
      const res = await get('/api/ClientStock/?combinedTicker=BHP:ASX', 'client');
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(DEMO_STOCK_IDS[0]);
      expect(res.body.roles).toEqual(
        expect.arrayContaining([StockRole.ViewConfig, StockRole.ReplyToComment]),
      );
    });

    it('may not change the logo of VOD:LSE, where it holds only ViewConfig (403)', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: 'VOD:LSE', companyLogoUrl: 'https://example.com/other.png' },
        'client',
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage:
          'You need the ReplyToComment permission on VOD:LSE to change moderator emails, the company logo or the comment template',
      });
    });

    it('sees both demo stocks on its dashboard and none of this run', async () => {
      const res = await get('/api/clientDashboard/', 'client');
      expect(res.status).toBe(200);
      const ids = res.body.stocks.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([...DEMO_STOCK_IDS]));
      expect(ids).not.toContain(t.A.id);
    });
  });
}
