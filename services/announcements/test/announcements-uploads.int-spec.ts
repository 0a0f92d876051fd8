import { Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expectRefusal, uploadFile } from './announcements-fixtures';
import { AnnouncementsHarness, MAX_PDF_BYTES } from './announcements-harness';

/** Staged upload chunks: once per upload and index, the size limit, pruning. */
describe('announcements service: staged uploads', () => {
  const h = new AnnouncementsHarness();
  let requester: KafkaRequester;
  let db: DataSource;
  const { save, count, announcementCount } = h;

  beforeAll(async () => {
    await h.start();
    ({ requester, db } = h);
  });

  afterAll(() => h.stop());

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
});
