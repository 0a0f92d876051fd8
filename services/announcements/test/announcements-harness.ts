import { INestApplication } from '@nestjs/common';
import { StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  ReceivedMessage,
  serviceTestEnv,
  topicEnds,
  TopicProbe,
} from '@irp/platform/testing';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startAnnouncementsService } from '../src/main';
import {
  ANNOUNCEMENT_TOPICS,
  clientOf,
  makePdf,
  saveFields,
  seedStocks,
  stockEvent,
  uploadFile,
} from './announcements-fixtures';

/**
 * The announcements service on the real broker and database (api role), as the announcements-*.int-spec.ts
 * files use it: each file starts one with a schema of its own, the same stocks and actors, and the helpers
 * below.
 */

export const MAX_PDF_BYTES = 20 * 1024 * 1024;
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file under a directory, relative and '/'-separated. */
export function filesUnder(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? filesUnder(root, join(dir, d.name)) : [join(dir, d.name)]))
    .sort();
}

// ABC: ASX, price-sensitive email on, three confirmation emails. VOD: LSE, nothing switched on.
// MKT: ASX, only email marketing for non-price-sensitive announcements (the manual send's fallback).
export const abc = stockEvent('ABC', 'ASX', {
  sendPriceSensitiveAnnouncements: true,
  confirmationEmail: 'ir@abc.example; board@abc.example ,ceo@abc.example',
});
export const vod = stockEvent('VOD', 'LSE');
export const mkt = stockEvent('MKT', 'ASX', { autoSendNonPriceSensitiveAnnouncements: true });
export const editor = clientOf('eddie', { [abc.id]: ['EditAnnouncements'], [vod.id]: ['EditAnnouncements'] });
export const sender = clientOf('sam', { [abc.id]: ['SendMailchimp'] });
export const outsider = clientOf('olga', { [mkt.id]: ['EditAnnouncements', 'SendMailchimp'] });

export class AnnouncementsHarness {
  app!: INestApplication;
  requester!: KafkaRequester;
  probe!: TopicProbe;
  db!: DataSource;
  dataDir!: string;
  sendRequestsAtJoin!: Map<number, bigint>;

  async start(): Promise<void> {
    await dropSchema('announcements');
    this.dataDir = mkdtempSync(join(tmpdir(), 'irp-announcements-'));
    this.probe = await TopicProbe.listen([
      Topics.AnnouncementDetected,
      Topics.AnnouncementSendRequested,
      Topics.AnnouncementPrioritySendRequested,
      Topics.AnnouncementConfirmationRequested,
    ]);
    // Of the priority topic: the announcements this harness saves are price-sensitive.
    this.sendRequestsAtJoin = await topicEnds(Topics.AnnouncementPrioritySendRequested);
    this.app = await startAnnouncementsService({
      ...serviceTestEnv('announcements'),
      DATA_DIR: this.dataDir,
      POLL_INTERVAL_MS: '3600000',
      ROLES: 'api',
    });
    this.db = this.app.get(DataSource);
    this.requester = await createTestRequester(ANNOUNCEMENT_TOPICS, 10_000);
    await this.requester.request(Topics.AnnouncementsPing, {});
    await seedStocks(this.db, [abc, vod, mkt]);
  }

  async stop(): Promise<void> {
    await this.requester?.close();
    await this.probe?.close();
    await this.app?.close();
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** ABC's quarterly report with a PDF over one chunk, as the add test stores it. */
  async addQuarterly(): Promise<{ announcement: StoredAnnouncement; pdf: Buffer }> {
    const pdf = await makePdf('Quarterly Activities Report', 1_000_000);
    const upload = await uploadFile(this.requester, pdf, 'quarterly.pdf');
    return { announcement: await this.save('ABC', { upload }), pdf };
  }

  /** An older ABC announcement, deleted, as the list and delete tests leave it. */
  async addDeletedOlder(): Promise<StoredAnnouncement> {
    const older = await this.save('ABC', {
      headline: 'Annual Report',
      date: '1 Feb 2025 9:00 AM',
      priceSensitive: false,
      upload: await uploadFile(this.requester, await makePdf('Annual Report')),
    });
    await this.requester.request(Topics.AnnouncementsDelete, {
      actor: editor,
      combinedTicker: 'ABC',
      sendGuid: older.sendGuid,
    });
    return older;
  }

  readonly save = (combinedTicker: string, fields: Record<string, unknown>, actor = editor) =>
    this.requester
      .request(Topics.AnnouncementsSave, { actor, combinedTicker, ...saveFields(fields) })
      .then((r) => r.announcement);
  readonly send = (a: StoredAnnouncement, combinedTicker: string, override = false, actor = sender) =>
    this.requester
      .request(Topics.AnnouncementsSend, { actor, combinedTicker, sendGuid: a.sendGuid, override })
      .then((r) => r.announcement);
  readonly row = async (sendGuid: string) =>
    (
      await this.db.query(`SELECT * FROM announcements.announcements WHERE send_guid = $1`, [sendGuid])
    )[0] as Record<string, unknown>;
  readonly count = async (sql: string, params: unknown[] = []) =>
    (await this.db.query(sql, params))[0].n as number;
  readonly announcementCount = () => this.count(`SELECT count(*)::int AS n FROM announcements.announcements`);
  readonly outboxCount = (topic: string, sendGuid: string) =>
    this.count(
      `SELECT count(*)::int AS n FROM announcements.outbox WHERE topic = $1 AND payload->'announcement'->>'sendGuid' = $2`,
      [topic, sendGuid],
    );
  readonly eventsFor = (topic: string, sendGuid: string) =>
    this.probe.received.filter(
      (m: ReceivedMessage) =>
        m.topic === topic &&
        (m.value as { announcement?: { sendGuid?: string } }).announcement?.sendGuid === sendGuid,
    );
  readonly eventFor = (topic: string, sendGuid: string, since = 0) =>
    this.probe.waitFor(
      (m) =>
        m.topic === topic &&
        this.probe.received.indexOf(m) >= since &&
        (m.value as { announcement?: { sendGuid?: string } }).announcement?.sendGuid === sendGuid,
    );
}
