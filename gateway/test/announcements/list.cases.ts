import {
  ANNOUNCEMENT_PAGE_MAX,
  ANNOUNCEMENT_PAGE_SIZE,
  AdminStockPageSchema,
  AnnouncementListSchema,
} from '@irp/proto';
import { randomUUID } from 'node:crypto';
import { connectTestDatabase, until } from '../gateway-harness';
import { AnnouncementsRun, T } from './announcements-harness';

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

    it('pages a long list: the stock page and the list give the newest page and where the older continue', async () => {
      const stock = await t.createStock({ ticker: T('PG'), companyName: 'Paging Resources' });
      await until(
        () => get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin'),
        (res) => res.status === 200,
        `the announcements service knowing ${stock.combinedTicker}`,
      );
      // The newest page, then two older ones (the second short), over 20 years, a few released at one moment.
      const total = ANNOUNCEMENT_PAGE_SIZE + ANNOUNCEMENT_PAGE_MAX + 50;
      const db = await connectTestDatabase();
      try {
        await db.query(
          `INSERT INTO announcements.announcements (stock_id, source_key, headline, released_at, origin)
           SELECT $1, 'page-' || g, 'Paged ' || g,
                  timestamptz '2005-01-01T00:00:00Z' + (g / 3) * interval '10 days', 'initial-poll'
             FROM generate_series(1, $2::int) g`,
          [stock.id, total],
        );
      } finally {
        await db.end();
      }

      const page = AdminStockPageSchema.parse(
        (await get(`/api/stock/${stock.combinedTicker}`, 'admin')).body,
      );
      const first = AnnouncementListSchema.parse(
        (await get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin')).body,
      );
      expect(page.announcements).toHaveLength(ANNOUNCEMENT_PAGE_SIZE);
      expect(page.announcements).toEqual(first.announcements);
      expect(page.announcementsNext).toBe(first.announcements.at(-1)?.id);
      expect(first.next).toBe(page.announcementsNext);

      // A later page is the stock's like the first: the editor holds no role on this stock.
      const refused = await get(
        `/api/Announcement/list/${stock.combinedTicker}?after=${first.next}`,
        'editor',
      );
      expect(refused.status).toBe(403);

      const all = [...first.announcements];
      const sizes: number[] = [];
      for (let after = first.next; after;) {
        const admin = await get(`/api/Announcement/list/${stock.combinedTicker}?after=${after}`, 'admin');
        const next = AnnouncementListSchema.parse(admin.body);
        all.push(...next.announcements);
        sizes.push(next.announcements.length);
        after = next.next;
      }
      expect(sizes).toEqual([ANNOUNCEMENT_PAGE_MAX, 50]);
      expect(all).toHaveLength(total);
      expect(new Set(all.map((a) => a.id)).size).toBe(total);
      const dates = all.map((a) => a.date);
      expect(dates).toEqual([...dates].sort().reverse());

      const unknown = await get(
        `/api/Announcement/list/${stock.combinedTicker}?after=${randomUUID()}`,
        'admin',
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessage).toBe(
        `The announcements of ${stock.combinedTicker} changed since this list was read: reload the page to see them`,
      );
      const malformed = await get(`/api/Announcement/list/${stock.combinedTicker}?after=page-2`, 'admin');
      expect(malformed.status).toBe(400);
      expect(malformed.body.errorMessage).toBe('after: must be the `next` of a previous page');
    });
  });
}
