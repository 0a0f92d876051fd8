import { AnnouncementListSchema } from '@irp/proto';
import { AnnouncementsRun } from './announcements-harness';

/** A stock's announcements and its initial poll. */
export function listCases(t: AnnouncementsRun) {
  const { get } = t;
  describe('GET /api/Announcement/list/{combinedTicker}', () => {
    it('gives the announcements newest first with the initial poll, to admins, editors and senders', async () => {
      for (const who of ['admin', 'editor', 'sender']) {
        const res = await get(`/api/Announcement/list/${t.A.combinedTicker}`, who);
        expect({ who, status: res.status }).toEqual({ who, status: 200 });
        const list = AnnouncementListSchema.parse(res.body);
        expect(list.announcements.map((a) => a.sendGuid)).toContain(t.base.sendGuid);
        expect(list.announcements.map((a) => a.stockId)).toEqual(list.announcements.map(() => t.A.id));
        const dates = list.announcements.map((a) => a.date);
        expect(dates).toEqual([...dates].sort().reverse());
      }
    });

    it('answers 404 for an unknown stock and 400 for a name too long', async () => {
      const missing = await get('/api/Announcement/list/NOSUCH9:ASX', 'admin');
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
      const long = await get(`/api/Announcement/list/${'A'.repeat(41)}`, 'admin');
      expect(long.status).toBe(400);
      expect(long.body.errorMessage).toBe('combinedTicker must be at most 40 characters');
    });
  });
}
