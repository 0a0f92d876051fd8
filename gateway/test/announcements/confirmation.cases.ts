import { randomUUID } from 'node:crypto';
import { AnnouncementsRun } from './announcements-harness';

/** The confirmation email to a stock's confirmation emails. */
export function confirmationCases(t: AnnouncementsRun) {
  const { post } = t;
  describe('POST /api/admin/sendConfirmationAnnouncementEmail/{combinedTicker}', () => {
    it("requests the confirmation email to the stock's confirmation emails", async () => {
      const res = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${t.A.combinedTicker}`,
        { sendGuid: t.base.sendGuid },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, recipients: ['ir@alpha.example.com'], errorMessage: null });
    });

    it('refuses a stock without confirmation emails (400), a bad body (400) and an unknown announcement (404)', async () => {
      const none = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${t.B.combinedTicker}`,
        { sendGuid: t.onB.sendGuid },
        'admin',
      );
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe(`No confirmation emails are set for ${t.B.ticker} (Config tab)`);
      const bad = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${t.A.combinedTicker}`,
        {},
        'admin',
      );
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('sendGuid: Required');
      const unknown = randomUUID();
      const missing = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${t.A.combinedTicker}`,
        { sendGuid: unknown },
        'admin',
      );
      expect(missing.status).toBe(404);
    });
  });
}
