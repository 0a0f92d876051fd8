import { AdminStockPageSchema } from '@irp/proto';
import { AnnouncementsRun, STOCK_PAGE_TIMEOUT_MS } from './announcements-harness';

/** The routes when the announcements service is down (registered last: it stops the service). */
export function serviceDownCases(t: AnnouncementsRun) {
  const { get } = t;
  describe('when the announcements service is down', () => {
    beforeAll(async () => {
      await t.announcements?.stop();
      t.announcements = undefined;
    });

    it('still answers the stock page, without announcements, naming the service in unavailable', async () => {
      const started = Date.now();
      const res = await get(`/api/stock/${t.A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(STOCK_PAGE_TIMEOUT_MS + 2000);
      expect(AdminStockPageSchema.parse(res.body)).toMatchObject({
        id: t.A.id,
        announcements: null,
        initialPoll: null,
        unavailable: ['announcements', 'reports'],
      });
    });

    it('answers the announcement routes 503 with a clear message', async () => {
      const res = await get(`/api/Announcement/list/${t.A.combinedTicker}`, 'admin');
      expect(res.status).toBe(503);
      expect(res.body.errorMessage).toMatch(/^The announcements service is not available right now/);
    });
  });
}
