import { StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expectRefusal, makePdf, uploadFile } from './announcements-fixtures';
import { AnnouncementsHarness, abc, editor, outsider, sender, vod } from './announcements-harness';

/** The Announcements tab's list (with the initial poll) and delete. */
describe('announcements service: list and delete', () => {
  const h = new AnnouncementsHarness();
  let requester: KafkaRequester;
  let db: DataSource;
  const { save, row } = h;

  let quarterly: StoredAnnouncement;

  beforeAll(async () => {
    await h.start();
    ({ requester, db } = h);
    ({ announcement: quarterly } = await h.addQuarterly());
  });

  afterAll(() => h.stop());

  // -------------------------------------------------------------------------------------------------
  // List and delete

  let older: StoredAnnouncement;

  it('lists newest first by release date, with the initial poll', async () => {
    older = await save('ABC', {
      headline: 'Annual Report',
      date: '1 Feb 2025 9:00 AM',
      priceSensitive: false,
      upload: await uploadFile(requester, await makePdf('Annual Report')),
    });
    const { announcements, initialPoll } = await requester.request(Topics.AnnouncementsList, {
      actor: editor,
      combinedTicker: 'ABC',
      includeDeleted: true,
    });
    const dates = announcements.map((a) => a.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(announcements.map((a) => a.sendGuid)).toEqual(
      expect.arrayContaining([quarterly.sendGuid, older.sendGuid]),
    );
    expect(announcements.every((a) => a.stockId === abc.id)).toBe(true);
    expect(initialPoll).toBeNull();
    // The service re-checks the signed actor: an announcement role on another stock is not one on ABC.
    await expectRefusal(
      requester.request(Topics.AnnouncementsList, {
        actor: outsider,
        combinedTicker: 'ABC',
        includeDeleted: true,
      }),
      'FORBIDDEN',
      'You need the EditAnnouncements or SendMailchimp or TestSendAnnouncement role on ABC:ASX to see its announcements',
    );

    await db.query(
      `INSERT INTO announcements.initial_polls (stock_id, run_id, status, from_year, to_year, current_year, found, started_at)
       VALUES ($1, $2, 'running', 2019, 2025, 2021, 340, '2025-03-01T00:00:00Z')`,
      [abc.id, randomUUID()],
    );
    const withPoll = await requester.request(Topics.AnnouncementsList, {
      actor: editor,
      combinedTicker: 'ABC:ASX',
      includeDeleted: true,
    });
    expect(withPoll.initialPoll).toEqual({
      stockId: abc.id,
      status: 'running',
      fromYear: 2019,
      toYear: 2025,
      currentYear: 2021,
      found: 340,
      startedAt: '2025-03-01T00:00:00.000Z',
      completedAt: null,
      error: null,
    });
  });

  it('deletes once: a second delete is refused and changes nothing', async () => {
    await expectRefusal(
      requester.request(Topics.AnnouncementsDelete, {
        actor: sender,
        combinedTicker: 'ABC',
        sendGuid: older.sendGuid,
      }),
      'FORBIDDEN',
      'You may not edit the announcements of ABC',
    );
    expect((await row(older.sendGuid)).deleted_on).toBeNull();
    const { announcement } = await requester.request(Topics.AnnouncementsDelete, {
      actor: editor,
      combinedTicker: 'ABC',
      sendGuid: older.sendGuid,
    });
    expect(announcement.deletedOn).not.toBeNull();
    const deletedOn = (await row(older.sendGuid)).deleted_on;
    await expectRefusal(
      requester.request(Topics.AnnouncementsDelete, {
        actor: editor,
        combinedTicker: 'ABC',
        sendGuid: older.sendGuid,
      }),
      'BAD_REQUEST',
      'The announcement is already deleted',
    );
    expect((await row(older.sendGuid)).deleted_on).toEqual(deletedOn);

    const visible = await requester.request(Topics.AnnouncementsList, {
      actor: editor,
      combinedTicker: 'ABC',
      includeDeleted: false,
    });
    expect(visible.announcements.map((a) => a.sendGuid)).not.toContain(older.sendGuid);
    const all = await requester.request(Topics.AnnouncementsList, {
      actor: editor,
      combinedTicker: 'ABC',
      includeDeleted: true,
    });
    expect(all.announcements.find((a) => a.sendGuid === older.sendGuid)?.deletedOn).toBe(
      announcement.deletedOn,
    );
  });

  it('pages the list newest first: each page after the last one read, every announcement once, in order', async () => {
    // Seven of VOD, two of them released at the same moment (the storage time, then the id, order those).
    await db.query(
      `INSERT INTO announcements.announcements (stock_id, source_key, headline, released_at, origin, created_at, deleted_on)
       SELECT $1, 'page-' || g, 'Page test ' || g,
              CASE WHEN g IN (3, 4) THEN timestamptz '2024-06-01T00:00:00Z'
                   ELSE timestamptz '2024-01-01T00:00:00Z' + g * interval '1 day' END,
              'manual', now() + g * interval '1 microsecond', CASE WHEN g = 5 THEN now() END
         FROM generate_series(1, 7) g`,
      [vod.id],
    );
    const list = (page: { limit?: number; after?: string } = {}) =>
      requester.request(Topics.AnnouncementsList, {
        actor: editor,
        combinedTicker: 'VOD:LSE',
        includeDeleted: true,
        ...page,
      });
    const whole = await list();
    expect(whole.announcements).toHaveLength(7);
    expect(whole.next).toBeNull();

    const paged: StoredAnnouncement[] = [];
    const nexts: (string | null)[] = [];
    let after: string | undefined;
    do {
      const page = await list({ limit: 3, after });
      expect(page.announcements.length).toBeLessThanOrEqual(3);
      paged.push(...page.announcements);
      nexts.push(page.next);
      after = page.next ?? undefined;
    } while (after);
    expect(nexts).toEqual([paged[2].id, paged[5].id, null]);
    expect(paged.map((a) => a.id)).toEqual(whole.announcements.map((a) => a.id));
    // The two of one moment, the later stored first; the deleted one listed (struck through on screen).
    const [first, second] = paged.filter((a) => a.date === '2024-06-01T00:00:00.000Z');
    expect([first.headline, second.headline]).toEqual(['Page test 4', 'Page test 3']);
    expect(paged.find((a) => a.headline === 'Page test 5')?.deletedOn).not.toBeNull();
    // A page exactly at the end says so.
    expect((await list({ limit: 7 })).next).toBeNull();
    expect((await list({ limit: 6 })).next).toBe(paged[5].id);

    // A continuation from an announcement that is not VOD's (another stock's, or none) is refused, not empty.
    for (const stranger of [quarterly.id, randomUUID()]) {
      await expectRefusal(
        list({ limit: 3, after: stranger }),
        'NOT_FOUND',
        'The announcements of VOD:LSE changed since this list was read: reload the page to see them',
      );
    }
  });
});
