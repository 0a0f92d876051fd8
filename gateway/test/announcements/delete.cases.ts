import { AnnouncementChangeResponseSchema } from '@irp/proto';
import { AnnouncementsRun, DATE } from './announcements-harness';

/** Deleting an announcement (kept, struck through). */
export function deleteCases(t: AnnouncementsRun) {
  const { post, save, listOf, find } = t;
  describe('POST /api/Announcement/delete/{combinedTicker}', () => {
    it('marks it deleted (kept in the list, struck through), once', async () => {
      const doomed = await save(
        t.A.combinedTicker,
        { headline: 'To be deleted', date: DATE },
        'admin',
        t.smallPdf,
      );
      const res = await post(
        `/api/Announcement/delete/${t.A.combinedTicker}`,
        { sendGuid: doomed.sendGuid },
        'editor',
      );
      expect(res.status).toBe(200);
      const { announcement } = AnnouncementChangeResponseSchema.parse(res.body);
      expect(announcement.sendGuid).toBe(doomed.sendGuid);
      expect(announcement.deletedOn).not.toBeNull();
      expect((await find(t.A.combinedTicker, doomed.sendGuid))?.deletedOn).toBe(announcement.deletedOn);

      const again = await post(
        `/api/Announcement/delete/${t.A.combinedTicker}`,
        { sendGuid: doomed.sendGuid },
        'admin',
      );
      expect(again.status).toBe(400);
      expect(again.body.errorMessage).toBe('The announcement is already deleted');
      const send = await post(
        `/api/Announcement/send/${t.A.combinedTicker}`,
        { sendGuid: doomed.sendGuid },
        'admin',
      );
      expect(send.status).toBe(400);
      expect(send.body.errorMessage).toBe('A deleted announcement cannot be sent');
      const widget = await t.http.get(`/api/widget/announcements?apiKey=${t.A.apiKey}`);
      expect(widget.body.announcements.map((a: { sendGuid: string }) => a.sendGuid)).not.toContain(
        doomed.sendGuid,
      );
    });

    it("refuses a body without a sendGuid (400) and an unknown or other stock's one (404), changing nothing", async () => {
      const before = await listOf(t.A.combinedTicker);
      const none = await post(`/api/Announcement/delete/${t.A.combinedTicker}`, {}, 'admin');
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe('sendGuid: Required');
      const bad = await post(`/api/Announcement/delete/${t.A.combinedTicker}`, { sendGuid: 'x' }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('sendGuid: must be an announcement id');
      const otherStocks = await post(
        `/api/Announcement/delete/${t.A.combinedTicker}`,
        { sendGuid: t.onB.sendGuid },
        'admin',
      );
      expect(otherStocks.status).toBe(404);
      expect(otherStocks.body.errorMessage).toBe(`Announcement ${t.onB.sendGuid} not found`);
      expect(await listOf(t.A.combinedTicker)).toEqual(before);
      expect((await find(t.B.combinedTicker, t.onB.sendGuid))?.deletedOn).toBeNull();
    });
  });
}
