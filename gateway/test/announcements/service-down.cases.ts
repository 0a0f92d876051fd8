import { AdminStockPageSchema } from '@irp/proto';
import { AnnouncementsRun } from './announcements-harness';

/** The routes when the announcements service is down (registered last: it stops the service). */
export function serviceDownCases(t: AnnouncementsRun) {
  const { get } = t;
  describe('when the announcements service is down', () => {
    beforeAll(async () => {
      await t.announcements?.stop();
      t.announcements = undefined;
    });

    it('still answers the stock page, without announcements, naming the service in unavailable', async () => {
      // The page waits for each service at most STOCK_PAGE_TIMEOUT_MS, then answers without it (how fast is
      // make bench's business, not a test's).
      const res = await get(`/api/stock/${t.A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
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
