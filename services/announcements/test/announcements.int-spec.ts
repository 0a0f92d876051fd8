import { INestApplication } from '@nestjs/common';
import { Announcement, AnnouncementMessages, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  ReceivedMessage,
  serviceTestEnv,
  topicEnds,
  TopicProbe,
  untilOutboxPublished,
  untilProbeAtEnd,
  waitUntil,
} from '@irp/platform/testing';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startAnnouncementsService } from '../src/main';
import { pdfPathFor } from '../src/storage/file-storage';
import {
  ADMIN,
  ANNOUNCEMENT_TOPICS,
  clientOf,
  expectRefusal,
  makePdf,
  produceEvent,
  readWholeFile,
  refusalOf,
  saveFields,
  seedStocks,
  stockEvent,
  uploadFile,
} from './announcements-fixtures';

const MAX_PDF_BYTES = 20 * 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file under a directory, relative and '/'-separated. */
function filesUnder(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? filesUnder(root, join(dir, d.name)) : [join(dir, d.name)]))
    .sort();
}

/**
 * The announcements service on the real broker and database (api role): list, staged uploads, add and edit
 * with the spec's rules and messages, delete, manual and confirmation sends through the outbox, PDF reads,
 * the widget's list and hits, and `announcement.delivered` from the email-marketing service.
 */
describe('announcements service on the real broker and database', () => {
  let app: INestApplication;
  let requester: KafkaRequester;
  let probe: TopicProbe;
  let db: DataSource;
  let dataDir: string;
  let sendRequestsAtJoin: Map<number, bigint>;

  // ABC: ASX, price-sensitive email on, three confirmation emails. VOD: LSE, nothing switched on.
  // MKT: ASX, only email marketing for non-price-sensitive announcements (the manual send's fallback).
  const abc = stockEvent('ABC', 'ASX', {
    sendPriceSensitiveAnnouncements: true,
    confirmationEmail: 'ir@abc.example; board@abc.example ,ceo@abc.example',
  });
  const vod = stockEvent('VOD', 'LSE');
  const mkt = stockEvent('MKT', 'ASX', { autoSendNonPriceSensitiveAnnouncements: true });
  const editor = clientOf('eddie', { [abc.id]: ['EditAnnouncements'], [vod.id]: ['EditAnnouncements'] });
  const sender = clientOf('sam', { [abc.id]: ['SendMailchimp'] });
  const outsider = clientOf('olga', { [mkt.id]: ['EditAnnouncements', 'SendMailchimp'] });

  let quarterly: Announcement;
  let quarterlyPdf: Buffer;

  const save = (combinedTicker: string, fields: Record<string, unknown>, actor = editor) =>
    requester
      .request(Topics.AnnouncementsSave, { actor, combinedTicker, ...saveFields(fields) })
      .then((r) => r.announcement);
  const send = (a: Announcement, combinedTicker: string, override = false, actor = sender) =>
    requester
      .request(Topics.AnnouncementsSend, { actor, combinedTicker, sendGuid: a.sendGuid, override })
      .then((r) => r.announcement);
  const row = async (sendGuid: string) =>
    (
      await db.query(`SELECT * FROM announcements.announcements WHERE send_guid = $1`, [sendGuid])
    )[0] as Record<string, unknown>;
  const count = async (sql: string, params: unknown[] = []) => (await db.query(sql, params))[0].n as number;
  const announcementCount = () => count(`SELECT count(*)::int AS n FROM announcements.announcements`);
  const outboxCount = (topic: string, sendGuid: string) =>
    count(
      `SELECT count(*)::int AS n FROM announcements.outbox WHERE topic = $1 AND payload->'announcement'->>'sendGuid' = $2`,
      [topic, sendGuid],
    );
  const eventsFor = (topic: string, sendGuid: string) =>
    probe.received.filter(
      (m: ReceivedMessage) =>
        m.topic === topic &&
        (m.value as { announcement?: { sendGuid?: string } }).announcement?.sendGuid === sendGuid,
    );
  const eventFor = (topic: string, sendGuid: string, since = 0) =>
    probe.waitFor(
      (m) =>
        m.topic === topic &&
        probe.received.indexOf(m) >= since &&
        (m.value as { announcement?: { sendGuid?: string } }).announcement?.sendGuid === sendGuid,
    );

  beforeAll(async () => {
    await dropSchema('announcements');
    dataDir = mkdtempSync(join(tmpdir(), 'irp-announcements-'));
    probe = await TopicProbe.listen([
      Topics.AnnouncementDetected,
      Topics.AnnouncementSendRequested,
      Topics.AnnouncementConfirmationRequested,
    ]);
    sendRequestsAtJoin = await topicEnds(Topics.AnnouncementSendRequested);
    app = await startAnnouncementsService({
      ...serviceTestEnv(),
      DATA_DIR: dataDir,
      POLL_INTERVAL_MS: '3600000',
      ROLES: 'api',
    });
    db = app.get(DataSource);
    requester = await createTestRequester(ANNOUNCEMENT_TOPICS, 10_000);
    await requester.request(Topics.AnnouncementsPing, {});
    await seedStocks(db, [abc, vod, mkt]);
  });

  afterAll(async () => {
    await requester?.close();
    await probe?.close();
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // -------------------------------------------------------------------------------------------------
  // The scaffold's checks

  it('answers its ping through Kafka', async () => {
    const reply = await requester.request(Topics.AnnouncementsPing, {});
    expect(reply.service).toBe('announcements');
    expect(new Date(reply.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('has migrated its schema, outbox included', async () => {
    const [r] = await db.query(`SELECT to_regclass('announcements.outbox') AS outbox`);
    expect(r.outbox).toBe('announcements.outbox');
    const names = (await db.query(`SELECT name FROM announcements.migrations`)).map(
      (m: { name: string }) => m.name,
    );
    expect(names).toContain('CreateAnnouncements1795468640785');
  });

  it('reports healthy on /health', async () => {
    const { port } = app.getHttpServer().address();
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });

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
      sent: false,
      sendHistory: [],
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
  // Uploads

  it('stages a chunk once per upload and index', async () => {
    const uploadId = randomUUID();
    const first = await requester.request(Topics.AnnouncementsUploadPart, {
      uploadId,
      index: 0,
      data: Buffer.from('first').toString('base64'),
    });
    const again = await requester.request(Topics.AnnouncementsUploadPart, {
      uploadId,
      index: 0,
      data: Buffer.from('second').toString('base64'),
    });
    expect([first.received, again.received]).toEqual([1, 1]);
    const rows = await db.query(`SELECT index, data FROM announcements.upload_parts WHERE upload_id = $1`, [
      uploadId,
    ]);
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0].data).toString()).toBe('second');
  });

  it('refuses a chunk that would take the upload past the limit, and a save of an oversized upload', async () => {
    const uploadId = randomUUID();
    const chunk = Buffer.alloc(768 * 1024, 0x20);
    chunk.write('%PDF-1.7');
    const data = chunk.toString('base64');
    const fit = Math.floor(MAX_PDF_BYTES / chunk.length); // 26 chunks fit in 20 MB, the 27th does not
    for (let index = 0; index < fit; index++) {
      await requester.request(Topics.AnnouncementsUploadPart, { uploadId, index, data });
    }
    await expectRefusal(
      requester.request(Topics.AnnouncementsUploadPart, { uploadId, index: fit, data }),
      'BAD_REQUEST',
      'The file is larger than 20 MB',
    );
    const staged = await db.query(
      `SELECT count(*)::int AS n, sum(octet_length(data))::bigint AS bytes FROM announcements.upload_parts WHERE upload_id = $1`,
      [uploadId],
    );
    expect(staged[0]).toEqual({ n: fit, bytes: String(fit * chunk.length) });
    // A retried chunk replaces itself rather than counting twice.
    const retried = await requester.request(Topics.AnnouncementsUploadPart, { uploadId, index: 0, data });
    expect(retried.received).toBe(fit);

    // Parts that got past the staging check some other way are still refused by the save.
    const sneaky = randomUUID();
    const half = Buffer.alloc(MAX_PDF_BYTES / 2 + 1, 0x20);
    half.write('%PDF-1.7');
    for (const index of [0, 1])
      await db.query(`INSERT INTO announcements.upload_parts (upload_id, index, data) VALUES ($1, $2, $3)`, [
        sneaky,
        index,
        half,
      ]);
    const before = await announcementCount();
    await expectRefusal(
      save('ABC', { upload: { uploadId: sneaky, parts: 2, fileName: 'big.pdf' } }),
      'BAD_REQUEST',
      'The file is larger than 20 MB',
    );
    expect(await announcementCount()).toBe(before);
  });

  it('prunes staged parts older than an hour', async () => {
    const stale = randomUUID();
    await db.query(
      `INSERT INTO announcements.upload_parts (upload_id, index, data, created_at) VALUES ($1, 0, $2, now() - interval '61 minutes')`,
      [stale, Buffer.from('%PDF')],
    );
    await uploadFile(requester, Buffer.from('%PDF-1.7 any'));
    expect(
      await count(`SELECT count(*)::int AS n FROM announcements.upload_parts WHERE upload_id = $1`, [stale]),
    ).toBe(0);
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

  // -------------------------------------------------------------------------------------------------
  // List and delete

  let older: Announcement;

  it('lists newest first by release date, with the initial poll', async () => {
    older = await save('ABC', {
      headline: 'Annual Report',
      date: '1 Feb 2025 9:00 AM',
      priceSensitive: false,
      upload: await uploadFile(requester, await makePdf('Annual Report')),
    });
    const { announcements, initialPoll } = await requester.request(Topics.AnnouncementsList, {
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

    await db.query(
      `INSERT INTO announcements.initial_polls (stock_id, run_id, status, from_year, to_year, current_year, found, started_at)
       VALUES ($1, $2, 'running', 2019, 2025, 2021, 340, '2025-03-01T00:00:00Z')`,
      [abc.id, randomUUID()],
    );
    const withPoll = await requester.request(Topics.AnnouncementsList, {
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
      combinedTicker: 'ABC',
      includeDeleted: false,
    });
    expect(visible.announcements.map((a) => a.sendGuid)).not.toContain(older.sendGuid);
    const all = await requester.request(Topics.AnnouncementsList, {
      combinedTicker: 'ABC',
      includeDeleted: true,
    });
    expect(all.announcements.find((a) => a.sendGuid === older.sendGuid)?.deletedOn).toBe(
      announcement.deletedOn,
    );
  });

  // -------------------------------------------------------------------------------------------------
  // Send

  it("requests a send on the stock's channels through the outbox, once without override", async () => {
    await expectRefusal(
      send(quarterly, 'ABC', false, editor),
      'FORBIDDEN',
      'You may not send the announcements of ABC',
    );
    expect((await row(quarterly.sendGuid)).send_requested_at).toBeNull();

    const since = probe.received.length;
    const sent = await send(quarterly, 'ABC');
    expect(sent.sendRequestedAt).not.toBeNull();
    const event = await eventFor(Topics.AnnouncementSendRequested, quarterly.sendGuid, since);
    expect(event.key).toBe(abc.id);
    expect(event.value).toMatchObject({
      stockId: abc.id,
      combinedTicker: 'ABC:ASX',
      channels: ['email'],
      override: false,
      auto: false,
      requestedBy: 'sam',
      requestedAt: sent.sendRequestedAt,
      announcement: { sendGuid: quarterly.sendGuid, sendRequestedAt: sent.sendRequestedAt },
    });

    const requestedAt = (await row(quarterly.sendGuid)).send_requested_at;
    await expectRefusal(send(quarterly, 'ABC'), 'CONFLICT', AnnouncementMessages.alreadySent);
    expect((await row(quarterly.sendGuid)).send_requested_at).toEqual(requestedAt);
    expect(await outboxCount(Topics.AnnouncementSendRequested, quarterly.sendGuid)).toBe(1);

    const resent = await send(quarterly, 'ABC', true);
    const overridden = await eventFor(
      Topics.AnnouncementSendRequested,
      quarterly.sendGuid,
      probe.received.indexOf(event) + 1,
    );
    expect(overridden.value).toMatchObject({ override: true, requestedAt: resent.sendRequestedAt });
    expect(await outboxCount(Topics.AnnouncementSendRequested, quarterly.sendGuid)).toBe(2);
  });

  it('publishes exactly one send when several arrive at once without override', async () => {
    const fresh = await save('ABC', {
      headline: 'Concurrent Send',
      upload: await uploadFile(requester, await makePdf('Concurrent Send')),
    });
    // Hold the row so the sends pile up behind it and then race: without the service's own row lock they
    // would all read "not sent" and each publish.
    const blocker = db.createQueryRunner();
    await blocker.startTransaction();
    let results: PromiseSettledResult<Announcement>[];
    try {
      await blocker.query(`SELECT 1 FROM announcements.announcements WHERE send_guid = $1 FOR UPDATE`, [
        fresh.sendGuid,
      ]);
      const pending = Promise.allSettled(Array.from({ length: 5 }, () => send(fresh, 'ABC')));
      await waitUntil(
        'sends waiting on the row',
        async () => (await count(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)) >= 2,
        5000,
      ).catch(() => undefined);
      await blocker.commitTransaction();
      results = await pending;
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refusals = await Promise.all(
      results
        .filter((r) => r.status === 'rejected')
        .map((r) => refusalOf(Promise.reject((r as PromiseRejectedResult).reason))),
    );
    expect(refusals.map((e) => e.code)).toEqual(['CONFLICT', 'CONFLICT', 'CONFLICT', 'CONFLICT']);
    // Every send has returned, so the outbox (what the relay publishes from) holds every request they wrote:
    // one, and once it is published the probe has read the topic as far as it could be.
    expect(await outboxCount(Topics.AnnouncementSendRequested, fresh.sendGuid)).toBe(1);
    await eventFor(Topics.AnnouncementSendRequested, fresh.sendGuid);
    await untilOutboxPublished('announcements', Topics.AnnouncementSendRequested);
    await untilProbeAtEnd(probe, Topics.AnnouncementSendRequested, sendRequestsAtJoin);
    expect(eventsFor(Topics.AnnouncementSendRequested, fresh.sendGuid)).toHaveLength(1);
  });

  it('refuses to send a deleted announcement or one no channel can carry', async () => {
    await expectRefusal(send(older, 'ABC', true), 'BAD_REQUEST', 'A deleted announcement cannot be sent');
    expect((await row(older.sendGuid)).send_requested_at).toBeNull();

    const vodNews = await save('VOD:LSE', {
      headline: 'No Channel',
      remotePath: 'https://lse.example/vod/2',
    });
    await expectRefusal(
      send(vodNews, 'VOD:LSE', false, ADMIN),
      'BAD_REQUEST',
      'No sending channel is switched on for VOD:LSE: turn on Email or email marketing sending on the Config tab',
    );
    expect((await row(vodNews.sendGuid)).send_requested_at).toBeNull();
    expect(await outboxCount(Topics.AnnouncementSendRequested, vodNews.sendGuid)).toBe(0);
  });

  it("falls back to any channel the stock switched on when none is chosen for the announcement's kind", async () => {
    const mktNews = await save(
      'MKT',
      {
        headline: 'Price Sensitive',
        priceSensitive: true,
        upload: await uploadFile(requester, await makePdf('MKT')),
      },
      outsider,
    );
    await send(mktNews, 'MKT', false, outsider);
    const event = await eventFor(Topics.AnnouncementSendRequested, mktNews.sendGuid);
    expect(event.value).toMatchObject({ channels: ['email-marketing'], combinedTicker: 'MKT:ASX' });
  });

  it("sends a confirmation email to the stock's confirmation emails, admins only", async () => {
    await expectRefusal(
      requester.request(Topics.AnnouncementsSendConfirmation, {
        actor: sender,
        combinedTicker: 'ABC',
        sendGuid: quarterly.sendGuid,
      }),
      'FORBIDDEN',
      'Only admins may send a confirmation email',
    );
    expect(await outboxCount(Topics.AnnouncementConfirmationRequested, quarterly.sendGuid)).toBe(0);

    const reply = await requester.request(Topics.AnnouncementsSendConfirmation, {
      actor: ADMIN,
      combinedTicker: 'ABC',
      sendGuid: quarterly.sendGuid,
    });
    expect(reply.recipients).toEqual(['ir@abc.example', 'board@abc.example', 'ceo@abc.example']);
    expect(reply.announcement.sendGuid).toBe(quarterly.sendGuid);
    const event = await eventFor(Topics.AnnouncementConfirmationRequested, quarterly.sendGuid);
    expect(event.key).toBe(abc.id);
    expect(event.value).toMatchObject({
      stockId: abc.id,
      combinedTicker: 'ABC:ASX',
      recipients: ['ir@abc.example', 'board@abc.example', 'ceo@abc.example'],
      requestedBy: 'alice',
    });

    const vodNews = await save('VOD:LSE', {
      headline: 'No Confirmation',
      remotePath: 'https://lse.example/vod/3',
    });
    await expectRefusal(
      requester.request(Topics.AnnouncementsSendConfirmation, {
        actor: ADMIN,
        combinedTicker: 'VOD:LSE',
        sendGuid: vodNews.sendGuid,
      }),
      'BAD_REQUEST',
      'No confirmation emails are set for VOD:LSE (Config tab)',
    );
    expect(await outboxCount(Topics.AnnouncementConfirmationRequested, vodNews.sendGuid)).toBe(0);
  });

  it('marks an announcement sent from announcement.delivered, adding each delivery once', async () => {
    const t1 = '2025-03-22T00:00:00.000Z';
    const t2 = '2025-03-23T00:00:00.000Z';
    const sentEvent = (timestamp: string, emailAddresses: string[]) => ({
      stockId: abc.id,
      sendGuid: quarterly.sendGuid,
      timestamp,
      emailAddresses,
    });
    await produceEvent(Topics.AnnouncementDelivered, abc.id, sentEvent(t1, ['a@x.example', 'b@x.example']));
    await waitUntil('announcement marked sent', async () => (await row(quarterly.sendGuid)).sent === true);
    // The same delivery again, then a new one: one partition (keyed by stock), so the first is handled by
    // the time the second shows.
    await produceEvent(Topics.AnnouncementDelivered, abc.id, sentEvent(t1, ['a@x.example', 'b@x.example']));
    await produceEvent(Topics.AnnouncementDelivered, abc.id, sentEvent(t2, ['a@x.example']));
    await waitUntil(
      'second delivery recorded',
      async () => ((await row(quarterly.sendGuid)).send_history as unknown[]).length >= 3,
    );
    expect((await row(quarterly.sendGuid)).send_history).toEqual([
      { timestamp: t1, emailAddress: 'a@x.example' },
      { timestamp: t1, emailAddress: 'b@x.example' },
      { timestamp: t2, emailAddress: 'a@x.example' },
    ]);
    const { announcements } = await requester.request(Topics.AnnouncementsList, {
      combinedTicker: 'ABC',
      includeDeleted: true,
    });
    expect(announcements.find((a) => a.sendGuid === quarterly.sendGuid)).toMatchObject({ sent: true });
  });

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

  it("lists a stock's announcements for the widget, not deleted, newest first", async () => {
    const { announcements } = await requester.request(Topics.AnnouncementsWidgetList, { stockId: abc.id });
    const guids = announcements.map((a) => a.sendGuid);
    expect(guids).toContain(quarterly.sendGuid);
    expect(guids).not.toContain(older.sendGuid);
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
    expect((await row(quarterly.sendGuid)).hits).toBe(10);
    expect((await row(older.sendGuid)).hits).toBe(0);
  });
});
