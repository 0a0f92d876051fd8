import { randomUUID } from 'node:crypto';
import { sendRequestTopicOf, Stock, StoredAnnouncement, Topics } from '@irp/proto';
import { stockFixture } from '@irp/proto/testing';
import { rawProducer, waitUntil } from '@irp/platform/testing';
import type { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';

/** Tickers unique to this run, so reruns against one database never meet old rows. */
const RUN = Date.now().toString(36).slice(-5).toUpperCase();
export const ticker = (prefix: string) => `${prefix}${RUN}`;

/** A whole `stock.upserted` event (proto's StockSchema). */
export function stockEvent(fields: Partial<Stock> & { ticker: string }): Stock {
  const now = new Date().toISOString();
  return stockFixture({
    id: randomUUID(),
    created: now,
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: true,
    billingDate: now,
    apiKey: randomUUID().replace(/-/g, ''),
    companyLogoUrl: 'https://example.com/logo.png',
    updatedAt: now,
    ...fields,
  });
}

/** An announcement as the announcements service carries it in its events. */
export function announcement(stockId: string, fields: Partial<StoredAnnouncement> = {}): StoredAnnouncement {
  const sendGuid = randomUUID();
  return {
    id: randomUUID(),
    stockId,
    sendGuid,
    headline: 'Quarterly Activities Report',
    headlineOriginal: null,
    date: new Date(Date.now() - 60_000).toISOString(),
    priceSensitive: true,
    remotePath: 'https://feed.example.com/a.pdf',
    localPath: `x/${sendGuid}.pdf`,
    pdfUrl: `/api/Announcement/pdf/${sendGuid}`,
    fileProblem: null,
    videoUrl: '',
    videoDescription: '',
    thumbnailPageNum: null,
    sendRequestedAt: new Date().toISOString(),
    numComments: 0,
    hits: 0,
    deletedOn: null,
    origin: 'poll',
    autoSend: null,
    createdAt: new Date().toISOString(),
    ...fields,
  };
}

/** Publishes events as the other services would (a raw producer; keyed by stock id). */
export class EventSender {
  private constructor(private readonly producer: Producer) {}

  static async connect(): Promise<EventSender> {
    return new EventSender(await rawProducer());
  }

  async send(topic: string, key: string, value: unknown): Promise<void> {
    await this.producer.send({ topic, messages: [{ key, value: JSON.stringify(value) }] });
  }

  stock(stock: Stock) {
    return this.send(Topics.StockUpserted, stock.id, stock);
  }

  sendRequested(stockId: string, a: StoredAnnouncement, fields: Record<string, unknown> = {}) {
    const event = {
      requestId: randomUUID(),
      stockId,
      combinedTicker: 'X:ASX',
      channels: ['email'],
      override: false,
      auto: false,
      requestedBy: 'admin',
      requestedAt: new Date().toISOString(),
      announcement: a,
      ...fields,
    };
    // On the topic the announcements service would choose: a price-sensitive announcement's own.
    return this.send(sendRequestTopicOf(a), stockId, event).then(() => event);
  }

  close() {
    return this.producer.disconnect();
  }
}

/** A TypeORM DataSource or a pg Client. */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Waits until the projection knows the stock (events arrive asynchronously). */
export async function waitForStock(db: DataSource, stockId: string, ms = 15_000): Promise<void> {
  await waitUntil(
    `stock ${stockId} in the projection`,
    async () =>
      ((await db.query(`SELECT 1 FROM email_marketing.stocks WHERE id = $1`, [stockId])) as unknown[])
        .length > 0,
    ms,
    100,
  );
}

/** Confirmed subscribers written straight to the table (for sends; the double opt-in has its own tests). */
export async function addConfirmedSubscribers(
  db: Queryable,
  stockId: string,
  emails: string[],
): Promise<void> {
  for (let i = 0; i < emails.length; i += 1000) {
    const batch = emails.slice(i, i + 1000);
    await db.query(
      `INSERT INTO email_marketing.subscribers (stock_id, email, status, confirmed_at)
       SELECT $1, e, 'confirmed', now() FROM unnest($2::text[]) AS e`,
      [stockId, batch],
    );
  }
}
