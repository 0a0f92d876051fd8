import { StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expectRefusal, makePdf, uploadFile } from './announcements-fixtures';
import { AnnouncementsHarness, abc, editor, outsider, sender } from './announcements-harness';

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
});
