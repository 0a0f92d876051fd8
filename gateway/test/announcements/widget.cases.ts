import { WidgetAnnouncementListSchema, WidgetAnnouncementSchema } from '@irp/proto';
import { AnnouncementsRun } from './announcements-harness';

/** The public widget API for announcements, by API key. */
export function widgetCases(t: AnnouncementsRun) {
  const { find } = t;
  describe('the widget API: /api/widget/announcements and /api/widget/announcement (public)', () => {
    it("lists the key's stock's announcements (not deleted, newest first) with CORS *", async () => {
      const res = await t.http
        .get(`/api/widget/announcements?apiKey=${t.A.apiKey}`)
        .set('Origin', 'https://alpha.example.com');
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const { announcements: list } = WidgetAnnouncementListSchema.parse(res.body);
      const guids = list.map((a) => a.sendGuid);
      expect(guids).toContain(t.base.sendGuid);
      expect(guids).not.toContain(t.onB.sendGuid);
      // Only what a website may see: no ids, paths or send state.
      for (const a of res.body.announcements) expect(WidgetAnnouncementSchema.strict().parse(a)).toEqual(a);
      const dates = list.map((a) => a.date);
      expect(dates).toEqual([...dates].sort().reverse());
    });

    it('opens an announcement and counts each view in hits', async () => {
      const open = () =>
        t.http
          .get(`/api/widget/announcement?apiKey=${t.A.apiKey}&sendGuid=${t.base.sendGuid}`)
          .set('X-Api-Key', t.A.apiKey!);
      const first = await open();
      expect(first.status).toBe(200);
      const hits = first.body.announcement.hits as number;
      expect(WidgetAnnouncementSchema.parse(first.body.announcement)).toMatchObject({
        sendGuid: t.base.sendGuid,
        pdfUrl: t.base.pdfUrl,
      });
      expect((await open()).body.announcement.hits).toBe(hits + 1);
      const list = await t.http.get(`/api/widget/announcements?apiKey=${t.A.apiKey}`);
      expect(
        list.body.announcements.find((a: { sendGuid: string }) => a.sendGuid === t.base.sendGuid).hits,
      ).toBe(hits + 1);
      expect((await find(t.A.combinedTicker, t.base.sendGuid))?.hits).toBe(hits + 1);
    });

    it("answers 404 for another stock's announcement, 400 without a sendGuid, 401 without a key", async () => {
      const other = await t.http.get(
        `/api/widget/announcement?apiKey=${t.A.apiKey}&sendGuid=${t.onB.sendGuid}`,
      );
      expect(other.status).toBe(404);
      expect((await find(t.B.combinedTicker, t.onB.sendGuid))?.hits).toBe(0);
      const none = await t.http.get(`/api/widget/announcement?apiKey=${t.A.apiKey}`);
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe('sendGuid: Required');
      const noKey = await t.http.get('/api/widget/announcements');
      expect(noKey.status).toBe(401);
      expect(noKey.headers['access-control-allow-origin']).toBe('*');
    });
  });
}
