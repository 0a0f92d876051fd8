import { INestApplication } from '@nestjs/common';
import { StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { createTestRequester, dropSchema, serviceTestEnv } from '@irp/platform/testing';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startAnnouncementsService } from '../src/main';
import {
  ADMIN,
  ANNOUNCEMENT_TOPICS,
  makePdf,
  saveFields,
  seedStocks,
  stockEvent,
  uploadFile,
} from './announcements-fixtures';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const split = (localPath: string) => {
  const at = localPath.lastIndexOf('/');
  return { directory: localPath.slice(0, at), filename: localPath.slice(at + 1) };
};

/** The system settings' file cleanup and disk report on the real broker, database and a real DATA_DIR. */
describe('announcements tools on the real broker and database', () => {
  let app: INestApplication;
  let requester: KafkaRequester;
  let db: DataSource;
  let dataDir: string;

  const abc = stockEvent('ABC', 'ASX', { apiKey: 'key-abc', websiteUrl: 'https://abc.example' });
  const arc = stockEvent('ARC', 'ASX', { apiKey: 'key-arc', archived: true });
  const nok = stockEvent('NOK', 'ASX', { apiKey: null });
  const exp = stockEvent('EXP', 'LSE', { apiKey: 'key-exp', subscriptionExpired: true });

  let shared: Buffer;
  let first: StoredAnnouncement;
  let copy: StoredAnnouncement;
  let lost: StoredAnnouncement;
  let archived: StoredAnnouncement;
  let lostPdf: Buffer;
  let archivedPdf: Buffer;
  const stray = Buffer.from('%PDF-1.4 a file no announcement names');

  const add = async (combinedTicker: string, headline: string, pdf: Buffer) =>
    (
      await requester.request(Topics.AnnouncementsSave, {
        actor: ADMIN,
        combinedTicker,
        ...saveFields({ headline, upload: await uploadFile(requester, pdf) }),
      })
    ).announcement;
  const snapshot = async () =>
    db.query(`SELECT * FROM announcements.announcements ORDER BY created_at, id`) as Promise<unknown[]>;

  beforeAll(async () => {
    await dropSchema('announcements');
    dataDir = mkdtempSync(join(tmpdir(), 'irp-announcements-tools-'));
    app = await startAnnouncementsService({
      ...serviceTestEnv('announcements'),
      DATA_DIR: dataDir,
      POLL_INTERVAL_MS: '3600000',
      ROLES: 'api',
    });
    db = app.get(DataSource);
    requester = await createTestRequester(ANNOUNCEMENT_TOPICS, 10_000);
    await requester.request(Topics.AnnouncementsPing, {});
    await seedStocks(db, [abc, arc, nok, exp]);

    shared = await makePdf('Shared content');
    lostPdf = await makePdf('Lost file', 5000);
    archivedPdf = await makePdf('Archived stock', 1000);
    first = await add('ABC', 'First copy', shared);
    copy = await add('ABC', 'Second copy', shared);
    lost = await add('ABC', 'Lost file', lostPdf);
    archived = await add('ARC', 'Archived stock report', archivedPdf);

    unlinkSync(join(dataDir, lost.localPath!));
    mkdirSync(join(dataDir, 'ORPHAN-ASX', '2024'), { recursive: true });
    writeFileSync(join(dataDir, 'ORPHAN-ASX', '2024', 'stray.pdf'), stray);
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports a missing file, identical files and a file no announcement names, deleting nothing', async () => {
    const before = await snapshot();
    const report = await requester.request(Topics.AnnouncementsFileCleanup, {});

    expect(report.missingOnDisk).toEqual([
      {
        combinedTicker: 'ABC:ASX',
        sendGuid: lost.sendGuid,
        headline: 'Lost file',
        date: lost.date,
        localPath: lost.localPath,
      },
    ]);
    const pair = [first, copy]
      .map((a) => ({ ...split(a.localPath!), size: shared.length }))
      .sort((a, b) => `${a.directory}/${a.filename}`.localeCompare(`${b.directory}/${b.filename}`));
    expect(report.duplicates).toEqual([{ sha256: sha256(shared), size: shared.length, files: pair }]);
    expect(report.onDiskButNotInDatabase).toEqual([
      { directory: 'ORPHAN-ASX/2024', filename: 'stray.pdf', size: stray.length },
    ]);

    // A report only: every file and row is as it was.
    for (const a of [first, copy, archived]) expect(existsSync(join(dataDir, a.localPath!))).toBe(true);
    expect(existsSync(join(dataDir, 'ORPHAN-ASX', '2024', 'stray.pdf'))).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it('reports disk space per stock from the stored sizes, largest first, billable stocks only on request', async () => {
    // Other suites' `stock.upserted` events reach this projection too: only this file's stocks are compared.
    const ours = new Set(['ABC', 'ARC', 'EXP:LSE', 'NOK']);
    const mine = <T extends { ticker: string }>(items: T[]) => items.filter((i) => ours.has(i.ticker));
    const nonBillable = await requester.request(Topics.AnnouncementsDiskReport, { includeBillable: false });
    expect(mine(nonBillable.items)).toEqual([
      {
        ticker: 'ARC',
        diskSpace: archivedPdf.length,
        website: 'arc.example.com',
        apiKey: 'key-arc',
        lastUsedInReport: null,
      },
      {
        ticker: 'EXP:LSE',
        diskSpace: 0,
        website: 'exp.example.com',
        apiKey: 'key-exp',
        lastUsedInReport: null,
      },
      { ticker: 'NOK', diskSpace: 0, website: 'nok.example.com', apiKey: null, lastUsedInReport: null },
    ]);

    const all = await requester.request(Topics.AnnouncementsDiskReport, { includeBillable: true });
    // The missing file still counts: the report reads the sizes stored with the announcements.
    const abcBytes = 2 * shared.length + lostPdf.length;
    expect(abcBytes).toBeGreaterThan(archivedPdf.length);
    expect(nonBillable.items.some((i) => i.ticker === 'ABC')).toBe(false);
    expect(mine(all.items).map((i) => [i.ticker, i.diskSpace])).toEqual([
      ['ABC', abcBytes],
      ['ARC', archivedPdf.length],
      ['EXP:LSE', 0],
      ['NOK', 0],
    ]);
    expect(mine(all.items)[0]).toMatchObject({ website: 'https://abc.example', apiKey: 'key-abc' });
    // Largest first across the whole report, whatever else it holds.
    const sizes = all.items.map((i) => i.diskSpace);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });
});
