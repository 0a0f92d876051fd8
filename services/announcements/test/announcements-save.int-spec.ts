import { StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pdfPathFor } from '../src/storage/file-storage';
import { ADMIN, expectRefusal, makePdf, readWholeFile, uploadFile } from './announcements-fixtures';
import { AnnouncementsHarness, abc, filesUnder, outsider, sender, sha256 } from './announcements-harness';

/** Add and edit with the spec's rules and messages, the PDF uploaded in chunks and read back. */
describe('announcements service: add and edit', () => {
  const h = new AnnouncementsHarness();
  let requester: KafkaRequester;
  let dataDir: string;
  const { save, row, count, announcementCount, outboxCount, eventFor } = h;

  let quarterly: StoredAnnouncement;
  let quarterlyPdf: Buffer;

  beforeAll(async () => {
    await h.start();
    ({ requester, dataDir } = h);
  });

  afterAll(() => h.stop());

  // -------------------------------------------------------------------------------------------------
  // Add

  it('adds an ASX announcement with a PDF uploaded in chunks, and publishes announcement.detected', async () => {
    // Over one chunk, so the parts are joined in order.
    quarterlyPdf = await makePdf('Quarterly Activities Report', 1_000_000);
    const upload = await uploadFile(requester, quarterlyPdf, 'quarterly.pdf');
    expect(upload.parts).toBe(2);
    quarterly = await save('ABC', { upload });

    expect(quarterly).toMatchObject({
      stockId: abc.id,
      headline: 'Quarterly Activities Report',
      headlineOriginal: null,
      date: '2025-03-21T21:50:00.000Z',
      priceSensitive: true,
      origin: 'manual',
      autoSend: 'not-automatic',
      sendRequestedAt: null,
      hits: 0,
      deletedOn: null,
      fileProblem: null,
      pdfUrl: `/api/Announcement/pdf/${quarterly.sendGuid}`,
      localPath: pdfPathFor('ABC:ASX', new Date('2025-03-21T21:50:00.000Z'), quarterly.sendGuid),
    });
    const stored = await row(quarterly.sendGuid);
    expect(stored).toMatchObject({
      file_status: 'stored',
      file_size: String(quarterlyPdf.length),
      file_sha256: sha256(quarterlyPdf),
      origin: 'manual',
      auto_send: 'not-automatic',
    });
    expect(String(stored.source_key)).toMatch(/^manual:[0-9a-f-]{36}$/);
    expect(readFileSync(join(dataDir, String(stored.local_path))).equals(quarterlyPdf)).toBe(true);
    expect(
      await count(`SELECT count(*)::int AS n FROM announcements.upload_parts WHERE upload_id = $1`, [
        upload.uploadId,
      ]),
    ).toBe(0);

    const event = await eventFor(Topics.AnnouncementDetected, quarterly.sendGuid);
    expect(event.key).toBe(abc.id);
    expect(event.value).toMatchObject({
      stockId: abc.id,
      combinedTicker: 'ABC:ASX',
      origin: 'manual',
      releasedAt: '2025-03-21T21:50:00.000Z',
      announcement: { sendGuid: quarterly.sendGuid, headline: 'Quarterly Activities Report' },
    });
  });

  it('reads the stored PDF back byte for byte, with its download name', async () => {
    const { bytes, reply } = await readWholeFile(requester, quarterly.sendGuid);
    expect(bytes.equals(quarterlyPdf)).toBe(true);
    expect(reply).toMatchObject({
      size: quarterlyPdf.length,
      fileName: 'ABC-2025-03-22-quarterly-activities-report.pdf',
      stockId: abc.id,
    });
    const middle = await requester.request(Topics.AnnouncementsReadFile, {
      sendGuid: quarterly.sendGuid,
      offset: 1000,
      length: 10,
    });
    expect(Buffer.from(middle.data, 'base64').equals(quarterlyPdf.subarray(1000, 1010))).toBe(true);
  });

  it("refuses a save that breaks the spec's rules with its exact messages, changing nothing", async () => {
    const before = await announcementCount();
    const filesBefore = filesUnder(dataDir);
    const stagedParts = () => count(`SELECT count(*)::int AS n FROM announcements.upload_parts`);
    const partsBefore = await stagedParts();
    const refusedPdf = await makePdf('Refused');
    // A fresh upload for each save, as the gateway stages one per request: a refused save discards its own.
    const pdf = () => uploadFile(requester, refusedPdf);
    await expectRefusal(
      save('ABC', { headline: '  ', upload: await pdf() }),
      'BAD_REQUEST',
      'Headline not defined',
    );
    await expectRefusal(
      save('ABC', { date: 'someday', upload: await pdf() }),
      'BAD_REQUEST',
      'Unable to parse date someday',
    );
    await expectRefusal(save('ABC', {}), 'BAD_REQUEST', 'File upload not defined. Must upload a pdf');
    await expectRefusal(
      save('ABC', { upload: await uploadFile(requester, Buffer.from('<html>not a pdf</html>')) }),
      'BAD_REQUEST',
      'The file is not a PDF',
    );
    await expectRefusal(
      save('ABC', { upload: { ...(await pdf()), parts: 2 } }),
      'BAD_REQUEST',
      'The upload is incomplete',
    );
    await expectRefusal(
      save('ABC', { upload: { uploadId: randomUUID(), parts: 1, fileName: 'x.pdf' } }),
      'BAD_REQUEST',
      'The upload is incomplete',
    );
    await expectRefusal(
      save('ABC', { upload: await pdf() }, sender),
      'FORBIDDEN',
      'You may not edit the announcements of ABC',
    );
    await expectRefusal(
      save('ABC', { upload: await pdf() }, outsider),
      'FORBIDDEN',
      'You may not edit the announcements of ABC',
    );
    await expectRefusal(
      save('NOPE', { upload: await pdf() }, ADMIN),
      'NOT_FOUND',
      'Stock NOPE:ASX not found',
    );
    // No row, no file (nor the temp file it is written through), no staged chunk left by any of them.
    expect(await announcementCount()).toBe(before);
    expect(filesUnder(dataDir)).toEqual(filesBefore);
    expect(await stagedParts()).toBe(partsBefore);
    // A refused save's upload is gone: naming it again is refused, not saved.
    const once = await pdf();
    await expectRefusal(save('ABC', { headline: '  ', upload: once }), 'BAD_REQUEST', 'Headline not defined');
    await expectRefusal(
      save('ABC', { headline: 'Saved after refusals', upload: once }),
      'BAD_REQUEST',
      'The upload is incomplete',
    );
    const saved = await save('ABC', { headline: 'Saved after refusals', upload: await pdf() });
    expect(saved.pdfUrl).not.toBeNull();
  });

  it('takes a URL and no file for a non-ASX stock', async () => {
    const before = await announcementCount();
    const pdf = await uploadFile(requester, await makePdf('LSE'));
    await expectRefusal(
      save('VOD:LSE', { remotePath: 'https://lse.example/vod/1', upload: pdf }),
      'BAD_REQUEST',
      'Only ASX announcements take a PDF upload; give the URL of the announcement instead',
    );
    await expectRefusal(
      save('VOD:LSE', { remotePath: '' }),
      'BAD_REQUEST',
      'URL not defined. Must give the address of the announcement',
    );
    await expectRefusal(
      save('VOD:LSE', { remotePath: 'javascript:alert(1)' }),
      'BAD_REQUEST',
      'The URL javascript:alert(1) is not an http(s) URL',
    );
    expect(await announcementCount()).toBe(before);
    const vodNews = await save('VOD:LSE', {
      headline: 'Trading Update',
      remotePath: 'https://lse.example/vod/1',
    });
    expect(vodNews).toMatchObject({ remotePath: 'https://lse.example/vod/1', localPath: null, pdfUrl: null });
    await expectRefusal(
      requester.request(Topics.AnnouncementsReadFile, { sendGuid: vodNews.sendGuid, offset: 0, length: 10 }),
      'NOT_FOUND',
      `Announcement ${vodNews.sendGuid} has no stored file`,
    );
  });

  // -------------------------------------------------------------------------------------------------
  // Edit

  it('edits by sendGuid, keeping the first headline in headlineOriginal and the stored PDF', async () => {
    const edited = await save('ABC', {
      sendGuid: quarterly.sendGuid,
      headline: 'Quarterly Activities Report (amended)',
      priceSensitive: false,
      videoUrl: 'https://video.example/q1',
      videoDescription: 'Webcast',
      thumbnailPageNum: 2,
    });
    expect(edited).toMatchObject({
      id: quarterly.id,
      sendGuid: quarterly.sendGuid,
      headline: 'Quarterly Activities Report (amended)',
      headlineOriginal: 'Quarterly Activities Report',
      priceSensitive: false,
      videoUrl: 'https://video.example/q1',
      videoDescription: 'Webcast',
      thumbnailPageNum: 2,
      localPath: quarterly.localPath,
      pdfUrl: quarterly.pdfUrl,
    });
    expect((await row(quarterly.sendGuid)).file_sha256).toBe(sha256(quarterlyPdf));

    const again = await save('ABC', { sendGuid: quarterly.sendGuid, headline: 'Q1 Report' });
    expect(again).toMatchObject({ headline: 'Q1 Report', headlineOriginal: 'Quarterly Activities Report' });
    // An edit is not a new announcement: nothing more is detected.
    expect(await outboxCount(Topics.AnnouncementDetected, quarterly.sendGuid)).toBe(1);
  });

  it('edits by the existing headline and date (to the minute), and clears headlineOriginal when edited back', async () => {
    const back = await save('ABC', {
      existingAnnouncementHeadline: 'Q1 Report',
      existingAnnouncementDate: '22 Mar 2025 8:50 AM',
      headline: 'Quarterly Activities Report',
      priceSensitive: true,
    });
    expect(back).toMatchObject({
      id: quarterly.id,
      headline: 'Quarterly Activities Report',
      headlineOriginal: null,
    });
  });

  it('refuses an edit it cannot place, changing nothing', async () => {
    const before = await row(quarterly.sendGuid);
    await expectRefusal(
      save('ABC', {
        existingAnnouncementHeadline: 'Quarterly Activities Report',
        existingAnnouncementDate: '22 Mar 2025 8:51 AM',
        headline: 'Wrong minute',
      }),
      'NOT_FOUND',
      "Announcement 'Quarterly Activities Report' of 22 Mar 2025 8:51 AM not found",
    );
    await expectRefusal(
      save('ABC', {
        existingAnnouncementHeadline: 'Quarterly Activities Report',
        existingAnnouncementDate: 'last week',
        headline: 'Bad date',
      }),
      'BAD_REQUEST',
      'Unable to parse date last week',
    );
    // The guid of another stock's announcement is not this stock's.
    await expectRefusal(
      save('VOD:LSE', {
        sendGuid: quarterly.sendGuid,
        headline: 'Elsewhere',
        remotePath: 'https://x.example/',
      }),
      'NOT_FOUND',
      `Announcement ${quarterly.sendGuid} not found`,
    );
    expect(await row(quarterly.sendGuid)).toEqual(before);
  });

  it('replaces the PDF on an edit that uploads one', async () => {
    const replacement = await makePdf('Replacement');
    const edited = await save('ABC', {
      sendGuid: quarterly.sendGuid,
      upload: await uploadFile(requester, replacement),
    });
    expect(edited.localPath).toBe(quarterly.localPath);
    const stored = await row(quarterly.sendGuid);
    expect(stored).toMatchObject({ file_sha256: sha256(replacement), file_size: String(replacement.length) });
    expect((await readWholeFile(requester, quarterly.sendGuid)).bytes.equals(replacement)).toBe(true);
  });
});
