import { RequestTopic, Stock, StockSchema, Topics, UPLOAD_CHUNK_BYTES } from '@irp/proto';
import { actor, stockFixture } from '@irp/proto/testing';
import { AppError, KafkaRequester } from '@irp/platform';
import { rawProducer, waitUntil } from '@irp/platform/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { DataSource } from 'typeorm';

/** Shared by the announcements service's integration tests: actors, stocks, PDFs, uploads. */

export const ANNOUNCEMENT_TOPICS: readonly RequestTopic[] = [
  Topics.AnnouncementsPing,
  Topics.AnnouncementsList,
  Topics.AnnouncementsUploadPart,
  Topics.AnnouncementsSave,
  Topics.AnnouncementsDelete,
  Topics.AnnouncementsSend,
  Topics.AnnouncementsSendConfirmation,
  Topics.AnnouncementsReadFile,
  Topics.AnnouncementsWidgetList,
  Topics.AnnouncementsWidgetOpen,
  Topics.AnnouncementsFileCleanup,
  Topics.AnnouncementsDiskReport,
];

/** The topics of a send request: a price-sensitive announcement's has its own (docs/adr/0018). */
export const SEND_REQUEST_TOPICS: readonly string[] = [
  Topics.AnnouncementSendRequested,
  Topics.AnnouncementPrioritySendRequested,
];

export const ADMIN = actor({
  id: '11111111-1111-4111-8111-111111111111',
  username: 'alice',
  roles: ['Admin'],
});

/** A client user holding these roles on these stocks only. */
export const clientOf = (username: string, stockRoles: Record<string, string[]>) =>
  actor({ id: randomUUID(), username, stockRoles });

/** A whole `stock.upserted` payload (StockSchema), switches off unless given. */
export function stockEvent(ticker: string, exchange: string, over: Partial<Stock> = {}): Stock {
  const now = new Date().toISOString();
  return StockSchema.parse(
    stockFixture({
      id: randomUUID(),
      ticker,
      exchange,
      companyName: `${ticker} Ltd`,
      created: now,
      pollAsx: false,
      announcementStartYear: 2025,
      billingDate: now,
      websiteUrl: `${ticker.toLowerCase()}.example.com`,
      updatedAt: now,
      ...over,
    }),
  );
}

/** Produces an event as another service would (no outbox, no validation on this side). */
export async function produceEvent(topic: string, key: string, value: unknown): Promise<void> {
  const producer = await rawProducer();
  try {
    await producer.send({ topic, messages: [{ key, value: JSON.stringify(value) }] });
  } finally {
    await producer.disconnect();
  }
}

/**
 * Puts stocks into the service's projection through `stock.upserted`, as the stocks service does, and
 * waits until the projection has them. Re-sent while missing: a new consumer group starts at the latest
 * offset, so an event produced while it was still joining would never arrive.
 */
export async function seedStocks(db: DataSource, stocks: readonly Stock[]): Promise<void> {
  const ids = stocks.map((s) => s.id);
  const known = async () =>
    (
      await db.query(`SELECT count(*)::int AS n FROM announcements.stocks WHERE id = ANY($1::uuid[])`, [ids])
    )[0].n as number;
  for (let attempt = 0; attempt < 5; attempt++) {
    for (const s of stocks) await produceEvent(Topics.StockUpserted, s.id, s);
    try {
      await waitUntil('stocks in the projection', async () => (await known()) === stocks.length, 5000);
      return;
    } catch {
      /* re-send: the consumer may not have had its partitions yet */
    }
  }
  throw new Error('the stock projection never received the seeded stocks');
}

/** A real PDF (pdf-lib) with the headline on its page; `padding` bytes of attachment make it larger. */
export async function makePdf(text: string, padding = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text.slice(0, 40), { x: 20, y: 100, size: 12 });
  if (padding)
    await doc.attach(randomBytes(padding), 'padding.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

/** Sends a file as the gateway does (ADR 0006): base64 chunks of UPLOAD_CHUNK_BYTES; returns the save's `upload`. */
export async function uploadFile(requester: KafkaRequester, bytes: Buffer, fileName = 'announcement.pdf') {
  const uploadId = randomUUID();
  let parts = 0;
  for (let offset = 0; offset < bytes.length || parts === 0; offset += UPLOAD_CHUNK_BYTES) {
    const data = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES).toString('base64');
    await requester.request(Topics.AnnouncementsUploadPart, { uploadId, index: parts, data });
    parts += 1;
  }
  return { uploadId, parts, fileName };
}

/** Reads a stored PDF back in chunks, as the gateway streams it. */
export async function readWholeFile(requester: KafkaRequester, sendGuid: string) {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const reply = await requester.request(Topics.AnnouncementsReadFile, {
      sendGuid,
      offset,
      length: UPLOAD_CHUNK_BYTES,
    });
    const bytes = Buffer.from(reply.data, 'base64');
    chunks.push(bytes);
    offset += bytes.length;
    if (offset >= reply.size || bytes.length === 0) return { bytes: Buffer.concat(chunks), reply };
  }
}

/** The error a call was refused with; fails the test when the call succeeded or failed otherwise. */
export async function refusalOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError refusal, got ${String(err)}`);
  return err;
}

export async function expectRefusal(p: Promise<unknown>, code: string, message: string): Promise<void> {
  const err = await refusalOf(p);
  expect({ code: err.code, message: err.message }).toEqual({ code, message });
}

/** The save request's fields a form sends, with this change. */
export const saveFields = (over: Record<string, unknown> = {}) => ({
  headline: 'Quarterly Activities Report',
  date: '22 Mar 2025 8:50 AM',
  priceSensitive: true,
  remotePath: '',
  videoUrl: '',
  videoDescription: '',
  thumbnailPageNum: null,
  ...over,
});
