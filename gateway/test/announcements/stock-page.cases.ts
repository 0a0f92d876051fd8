import { AdminStockPageSchema } from '@irp/proto';
import { AnnouncementsRun } from './announcements-harness';

/** The admin stock page composed with the announcements. */
export function stockPageCases(t: AnnouncementsRun) {
  const { get, listOf } = t;
  describe('GET /api/stock/{combinedTicker} composed with the announcements', () => {
    it('gives an admin the stock with its announcements and initial poll', async () => {
      const res = await get(`/api/stock/${t.A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      const page = AdminStockPageSchema.parse(res.body);
      expect(page).toEqual(res.body);
      // This file starts neither the email-marketing service (who was mailed each announcement, ADR 0013: the
      // announcements show as not mailed) nor the reports service (the page's currentMarketData).
      expect(page).toMatchObject({ id: t.A.id, unavailable: ['email-marketing', 'reports'] });
      expect(page.announcements?.every((a) => !a.sent && a.sendHistory.length === 0)).toBe(true);
      expect(page.announcements).toEqual((await listOf(t.A.combinedTicker)).announcements);
      expect(page.announcements?.map((a) => a.sendGuid)).toContain(t.base.sendGuid);
    });

    it('gives a report-runner the summary only, without announcements', async () => {
      const res = await get(`/api/stock/${t.A.combinedTicker}`, 'reports');
      expect(res.status).toBe(200);
      expect(res.body.announcements).toBeUndefined();
      expect(res.body.unavailable).toBeUndefined();
      expect(res.body.completedInitialPoll).toEqual(expect.any(Boolean));
    });
  });
}
