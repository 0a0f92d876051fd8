import { StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { randomUUID } from 'node:crypto';
import { ADMIN, expectRefusal, makePdf, uploadFile } from './announcements-fixtures';
import { AnnouncementsHarness, abc, vod } from './announcements-harness';

/** PDF reads of unknown announcements, the widget's list and its hits. */
describe('announcements service: files and the widget', () => {
  const h = new AnnouncementsHarness();
  let requester: KafkaRequester;
  const { row } = h;

  let quarterly: StoredAnnouncement;
  let older: StoredAnnouncement;
  let ahead: StoredAnnouncement;

  beforeAll(async () => {
    await h.start();
    ({ requester } = h);
    ({ announcement: quarterly } = await h.addQuarterly());
    older = await h.addDeletedOlder();
    // Dated ahead of its release (a date typed in advance): not on the company's website before then.
    ahead = await h.save('ABC', {
      headline: 'Results Briefing',
      date: '1 Jan 2099 9:00 AM',
      priceSensitive: false,
      upload: await uploadFile(requester, await makePdf('Results Briefing')),
    });
  });

  afterAll(() => h.stop());

  // -------------------------------------------------------------------------------------------------
  // Files and the widget

  it('answers NOT_FOUND for a PDF it does not have', async () => {
    const unknown = randomUUID();
    await expectRefusal(
      requester.request(Topics.AnnouncementsReadFile, { sendGuid: unknown, offset: 0, length: 10 }),
      'NOT_FOUND',
      `Announcement ${unknown} not found`,
    );
  });

  it("answers NOT_FOUND for a deleted announcement's PDF (the route is public), and reads the others", async () => {
    expect((await h.row(older.sendGuid)).file_status).toBe('stored');
    await expectRefusal(
      requester.request(Topics.AnnouncementsReadFile, { sendGuid: older.sendGuid, offset: 0, length: 10 }),
      'NOT_FOUND',
      `Announcement ${older.sendGuid} not found`,
    );
    const read = (sendGuid: string) =>
      requester.request(Topics.AnnouncementsReadFile, { sendGuid, offset: 0, length: 4 });
    expect(Buffer.from((await read(quarterly.sendGuid)).data, 'base64').toString()).toBe('%PDF');
    // The Announcements tab links no deleted announcement to its PDF.
    const { announcements } = await requester.request(Topics.AnnouncementsList, {
      actor: ADMIN,
      combinedTicker: 'ABC',
      includeDeleted: true,
    });
    expect(announcements.find((a) => a.sendGuid === older.sendGuid)).toMatchObject({ pdfUrl: null });
    expect(announcements.find((a) => a.sendGuid === quarterly.sendGuid)?.pdfUrl).toBe(
      `/api/Announcement/pdf/${quarterly.sendGuid}`,
    );
  });

  it("lists a stock's announcements for the widget, not deleted, none dated in the future, newest first", async () => {
    const { announcements } = await requester.request(Topics.AnnouncementsWidgetList, { stockId: abc.id });
    const guids = announcements.map((a) => a.sendGuid);
    expect(guids).toContain(quarterly.sendGuid);
    expect(guids).not.toContain(older.sendGuid);
    expect(guids).not.toContain(ahead.sendGuid);
    const dates = announcements.map((a) => a.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(announcements.find((a) => a.sendGuid === quarterly.sendGuid)).toEqual({
      sendGuid: quarterly.sendGuid,
      headline: 'Quarterly Activities Report',
      date: '2025-03-21T21:50:00.000Z',
      priceSensitive: true,
      pdfUrl: `/api/Announcement/pdf/${quarterly.sendGuid}`,
      remotePath: '',
      // The later edits sent the form's empty video fields, as the edit form does.
      videoUrl: '',
      videoDescription: '',
      thumbnailPageNum: null,
      numComments: 0,
      hits: 0,
    });
  });

  it('counts every widget opening, concurrent ones included, and only for its own stock', async () => {
    const open = (stockId: string, sendGuid: string) =>
      requester.request(Topics.AnnouncementsWidgetOpen, { stockId, sendGuid }).then((r) => r.announcement);
    expect((await open(abc.id, quarterly.sendGuid)).hits).toBe(1);
    expect((await open(abc.id, quarterly.sendGuid)).hits).toBe(2);
    const hits = (await Promise.all(Array.from({ length: 8 }, () => open(abc.id, quarterly.sendGuid)))).map(
      (a) => a.hits,
    );
    expect([...hits].sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await row(quarterly.sendGuid)).hits).toBe(10);

    await expectRefusal(
      open(vod.id, quarterly.sendGuid),
      'NOT_FOUND',
      `Announcement ${quarterly.sendGuid} not found`,
    );
    await expectRefusal(
      open(abc.id, older.sendGuid),
      'NOT_FOUND',
      `Announcement ${older.sendGuid} not found`,
    );
    await expectRefusal(
      open(abc.id, ahead.sendGuid),
      'NOT_FOUND',
      `Announcement ${ahead.sendGuid} not found`,
    );
    expect((await row(quarterly.sendGuid)).hits).toBe(10);
    expect((await row(older.sendGuid)).hits).toBe(0);
  });
});
