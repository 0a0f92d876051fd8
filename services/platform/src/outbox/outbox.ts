import { EventCatalogue, EventOf, EventTopic, formatZodIssues, Header } from '@irp/proto';
import { Producer } from 'kafkajs';
import { MESSAGE_COMPRESSION } from '../kafka';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../errors';
import { createLogger, currentCorrelationId } from '../logging';
import { outboxPublished } from '../metrics';
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
    // Wake the relay so it publishes soon after the caller commits instead of at its next poll.
    setImmediate(() => this.relay?.nudge());
  }
}

/**
 * Publishes committed outbox rows to Kafka in order. One relay per schema publishes at a time (a Postgres
 * advisory lock), so events of one key keep their order across instances.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly dataSource: DataSource,
    private readonly producer: Producer,
    private readonly schema: string,
    private readonly idleMs = 250,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
  }

  nudge(): void {
    this.wake?.();
  }

  /** Publishes one batch; returns how many rows it published. */
  async publishBatch(limit = 200): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      const [{ locked }] = await m.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [
        `outbox:${this.schema}`,
      ]);
      if (!locked) return 0;
      const rows: Array<{
        id: string;
        topic: string;
        key: string | null;
        payload: unknown;
        headers: Record<string, string>;
      }> = await m.query(
        `SELECT id, topic, key, payload, headers FROM "${this.schema}".outbox WHERE published_at IS NULL ORDER BY id LIMIT $1`,
        [limit],
      );
      if (!rows.length) return 0;
      const byTopic = new Map<string, typeof rows>();
      for (const row of rows) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), row]);
      await this.producer.sendBatch({
        acks: -1,
        compression: MESSAGE_COMPRESSION,
        topicMessages: [...byTopic].map(([topic, list]) => ({
          topic,
          messages: list.map((r) => ({ key: r.key, value: JSON.stringify(r.payload), headers: r.headers })),
        })),
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
      try {
        published = await this.publishBatch();
      } catch (err) {
        log.error({ err }, 'outbox relay failed; retrying');
      }
      if (published === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.idleMs);
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
