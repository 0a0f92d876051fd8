import { AnnouncementsRun } from './announcements-harness';

/** Starting a stock's initial poll again. */
export function resyncCases(t: AnnouncementsRun) {
  const { get, post } = t;
  describe('POST /api/admin/resyncAnnouncements?ticker', () => {
    it("starts the stock's initial poll again; the stock page shows its progress", async () => {
      const res = await post(`/api/admin/resyncAnnouncements?ticker=${t.R.combinedTicker}`, {}, 'admin');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, initialPoll: expect.objectContaining({ stockId: t.R.id }) });
      expect(['running', 'completed']).toContain(res.body.initialPoll.status);
      const page = await get(`/api/stock/${t.R.combinedTicker}`, 'admin');
      expect(page.status).toBe(200);
      expect(page.body.initialPoll).toMatchObject({ stockId: t.R.id });
      // This file starts neither the reports service (the page's currentMarketData) nor the email-marketing
      // service, which is asked (and named unavailable) once the resync has stored announcements to show.
      const shown: unknown[] = page.body.announcements ?? [];
      expect(page.body.unavailable).toEqual(shown.length ? ['email-marketing', 'reports'] : ['reports']);
    });

    it('refuses a missing ticker (400) and an unknown stock (404)', async () => {
      const none = await post('/api/admin/resyncAnnouncements', {}, 'admin');
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe('ticker: Required');
      const unknown = await post('/api/admin/resyncAnnouncements?ticker=NOSUCH9:ASX', {}, 'admin');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
    });
  });
}
