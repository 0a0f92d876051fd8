import { dlqTopic } from '@irp/proto';
import { Admin, Kafka } from 'kafkajs';
import { kafkaClientConfig, KafkaSettings } from './kafka';
import { createLogger } from './logging';

const log = createLogger('dlq-depth');

/**
 * How many messages each `.dlq` topic of a service's handled topics holds: the sum over its partitions of the
 * end offset minus the earliest offset still retained. It counts what every process (and every service
 * handling the same topic) rejected, not only this one, unlike `irp_dlq_messages_total`. Read on a scrape,
 * at most every `cacheMs` and within `timeoutMs`; a read that fails or is late keeps the last values read,
 * so a scrape never fails or waits on the broker.
 */
export class DlqDepth {
  private admin?: Admin;
  private last = new Map<string, number>();
  private readAt = 0;
  private reading?: Promise<void>;

  constructor(
    private readonly kafka: Pick<KafkaSettings, 'brokers' | 'service' | 'instanceId'>,
    sourceTopics: readonly string[],
    private readonly cacheMs = 5000,
    private readonly timeoutMs = 2000,
  ) {
    this.topics = [...new Set(sourceTopics)].map(dlqTopic);
  }

  readonly topics: string[];

  /** The last depths read, by DLQ topic, refreshed first when they are older than `cacheMs`. */
  async depths(): Promise<ReadonlyMap<string, number>> {
    if (this.topics.length && Date.now() - this.readAt >= this.cacheMs) {
      this.reading ??= this.read().finally(() => (this.reading = undefined));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.reading,
        new Promise((resolve) => (timer = setTimeout(resolve, this.timeoutMs))),
      ]).finally(() => clearTimeout(timer));
    }
    return this.last;
  }

  async close(): Promise<void> {
    await this.reading?.catch(() => undefined);
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }

  private async read(): Promise<void> {
    try {
      if (!this.admin) {
        const admin = new Kafka(
          kafkaClientConfig({ ...this.kafka, service: `${this.kafka.service}-dlq-depth` }),
        ).admin();
        await admin.connect();
        this.admin = admin;
      }
      const admin = this.admin;
      const read = await Promise.allSettled(
        this.topics.map(async (topic) => {
          const offsets = await admin.fetchTopicOffsets(topic);
          return [topic, offsets.reduce((n, o) => n + Number(o.high) - Number(o.low), 0)] as const;
        }),
      );
      const next = new Map(this.last);
      for (const r of read) if (r.status === 'fulfilled') next.set(...r.value);
      this.last = next;
      this.readAt = Date.now();
    } catch (err) {
      log.warn({ err }, 'DLQ depth not read; /metrics keeps the last depths');
    }
  }
}
