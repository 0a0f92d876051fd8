import { EventCatalogue, EventOf, EventTopic, formatZodIssues, Header } from '@irp/proto';
import { Producer } from 'kafkajs';
import { Client } from 'pg';
import { compressionFor } from '../kafka';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../errors';
import { createLogger, currentCorrelationId } from '../logging';
import { outboxOldestUnpublished, outboxPublished } from '../metrics';
import { OutboxEntity } from './outbox.entity';

const log = createLogger('outbox');

/**
 * Writes events inside the caller's transaction. Each event is validated against its catalogue schema
 * before it is stored (produce-side validation), and keyed so one entity's events stay in order.
 */
export class Outbox {
  constructor(private readonly relay?: OutboxRelay) {}

  async add<T extends EventTopic>(
    manager: EntityManager,
    topic: T,
    key: string,
    event: EventOf<T>,
  ): Promise<void> {
    const parsed = EventCatalogue[topic].schema.safeParse(event);
    if (!parsed.success) {
      throw new AppError('INTERNAL', `Invalid ${topic} event: ${formatZodIssues(parsed.error)}`);
    }
    await manager.insert(OutboxEntity, {
      topic,
      key,
      payload: parsed.data,
      headers: { [Header.CorrelationId]: currentCorrelationId() ?? '' },
    });
    if (this.relay?.channel) {
      // Postgres delivers a NOTIFY when (and only if) the caller's transaction commits, to the relay of
      // whichever instance listens: it publishes at once instead of at its next poll.
      await manager.query(`SELECT pg_notify($1, '')`, [this.relay.channel]);
    } else {
      setImmediate(() => this.relay?.nudge());
    }
  }
}

/**
 * Publishes committed outbox rows to Kafka in order. One relay per schema publishes at a time (a Postgres
 * advisory lock), so events of one key keep their order across instances.
 */
/**
 * The fallback poll while the relay's LISTEN connection is up (idle services polled 4 times a second, each
 * poll a transaction: ~15% of their idle CPU).
 */
const LISTENING_POLL_MS = 5000;

export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** Set by a nudge while a batch runs: the batch may have read before the nudging commit. */
  private nudged = false;
  private listener?: Client;
  private relisten?: NodeJS.Timeout;

  /**
   * With `databaseUrl`, the relay LISTENs on `channel` on a connection of its own and publishes as soon as a
   * transaction that added events commits; `idleMs` is then only the fallback poll (a lost connection, rows
   * written by hand).
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: Producer,
    private readonly schema: string,
    private readonly idleMs = 250,
    private readonly databaseUrl?: string,
  ) {}

  /** The NOTIFY channel of this schema's outbox, when the relay listens. */
  get channel(): string | undefined {
    return this.databaseUrl ? `outbox_${this.schema}` : undefined;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    void this.listen();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.relisten);
    this.nudge();
    await this.loop;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  private async listen(): Promise<void> {
    if (!this.databaseUrl || !this.running) return;
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: `outbox-relay:${this.schema}`,
      keepAlive: true,
    });
    const retry = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      if (err) log.warn({ err }, 'outbox relay lost its LISTEN connection; polling until it is back');
      client.end().catch(() => undefined);
      if (this.running) this.relisten = setTimeout(() => void this.listen(), 1000);
    };
    this.listener = client;
    client.on('notification', () => this.nudge());
    client.on('error', retry);
    client.on('end', () => retry(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      // Rows committed before the LISTEN took effect are found by this nudge.
      this.nudge();
    } catch (err) {
      retry(err);
    }
  }

  /** Publishes one batch; returns how many rows it published. */
  async publishBatch(limit = 200): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      const [{ locked }] = await m.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [
        `outbox:${this.schema}`,
      ]);
      if (!locked) {
        // The holder's relay reports the backlog; a stale figure here would double it.
        outboxOldestUnpublished.set(0);
        return 0;
      }
      const rows: Array<{
        id: string;
        topic: string;
        key: string | null;
        payload: unknown;
        headers: Record<string, string>;
        age_seconds: number;
      }> = await m.query(
        `SELECT id, topic, key, payload, headers, EXTRACT(EPOCH FROM now() - created_at)::float8 AS age_seconds
           FROM "${this.schema}".outbox WHERE published_at IS NULL ORDER BY id LIMIT $1`,
        [limit],
      );
      // In id order the first row is the oldest, to within the length of the transactions that wrote them.
      outboxOldestUnpublished.set(rows.length ? Number(rows[0].age_seconds) : 0);
      if (!rows.length) return 0;
      const byTopic = new Map<string, typeof rows>();
      for (const row of rows) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), row]);
      const topicMessages = [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((r) => ({ key: r.key, value: JSON.stringify(r.payload), headers: r.headers })),
      }));
      await this.producer.sendBatch({
        acks: -1,
        compression: compressionFor(topicMessages.flatMap((t) => t.messages)),
        topicMessages,
      });
      await m.query(`UPDATE "${this.schema}".outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [
        rows.map((r) => r.id),
      ]);
      for (const row of rows) outboxPublished.inc({ topic: row.topic });
      return rows.length;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      let published = 0;
      let failed = false;
      this.nudged = false;
      try {
        published = await this.publishBatch();
      } catch (err) {
        failed = true;
        log.error({ err }, 'outbox relay failed; retrying');
      }
      if (published === 0 && this.running && !this.nudged) {
        await new Promise<void>((resolve) => {
          // While LISTENing, a commit's NOTIFY wakes the relay: the poll is only for rows written by hand. A
          // failed batch (the broker or the database away) is tried again after the short wait: the rows are
          // still there, and no NOTIFY says when the broker is back (a batch tries the broker for ~6 s itself).
          const timer = setTimeout(resolve, this.listener && !failed ? LISTENING_POLL_MS : this.idleMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }
}
