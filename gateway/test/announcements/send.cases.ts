import { randomUUID } from 'node:crypto';
import { AnnouncementChangeResponseSchema, AnnouncementMessages } from '@irp/proto';
import { AnnouncementsRun, DATE } from './announcements-harness';

/** Requesting the send of an announcement, once unless overridden. */
export function sendCases(t: AnnouncementsRun) {
  const { post, save } = t;
  describe('POST /api/Announcement/send/{combinedTicker}?sendOverride', () => {
    it('requests a send once; a second needs sendOverride (409 without it)', async () => {
      const fresh = await save(
        t.A.combinedTicker,
        { headline: 'Trading Halt', date: DATE },
        'admin',
        t.smallPdf,
      );
      const first = await post(
        `/api/Announcement/send/${t.A.combinedTicker}`,
        { sendGuid: fresh.sendGuid },
        'sender',
      );
      expect(first.status).toBe(200);
      const sent = AnnouncementChangeResponseSchema.parse(first.body).announcement;
      expect(sent.sendRequestedAt).not.toBeNull();

      const again = await post(
        `/api/Announcement/send/${t.A.combinedTicker}`,
        { sendGuid: fresh.sendGuid },
        'sender',
      );
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: AnnouncementMessages.alreadySent,
        errorMessage: AnnouncementMessages.alreadySent,
      });
      const notOverride = await post(
        `/api/Announcement/send/${t.A.combinedTicker}?sendOverride=false`,
        { sendGuid: fresh.sendGuid },
        'admin',
      );
      expect(notOverride.status).toBe(409);
      // An ASP.NET-style client's False is no override either.
      const notOverrideCapital = await post(
        `/api/Announcement/send/${t.A.combinedTicker}?sendOverride=False`,
        { sendGuid: fresh.sendGuid },
        'admin',
      );
      expect(notOverrideCapital.status).toBe(409);

      // As the web app sends it: the bare flag.
      const override = await post(
        `/api/Announcement/send/${t.A.combinedTicker}?sendOverride`,
        { sendGuid: fresh.sendGuid, headline: 'ignored: the server reads only the sendGuid' },
        'sender',
      );
      expect(override.status).toBe(200);
      expect(override.body.announcement.headline).toBe('Trading Halt');
      expect(Date.parse(override.body.announcement.sendRequestedAt)).toBeGreaterThanOrEqual(
        Date.parse(sent.sendRequestedAt!),
      );
    });

    it('refuses a bad body (400) and an unknown announcement (404)', async () => {
      const bad = await post(`/api/Announcement/send/${t.A.combinedTicker}`, { sendGuid: 42 }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('sendGuid: Expected string, received number');
      const unknown = randomUUID();
      const missing = await post(
        `/api/Announcement/send/${t.A.combinedTicker}`,
        { sendGuid: unknown },
        'admin',
      );
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe(`Announcement ${unknown} not found`);
    });
  });
}
