import { KafkaOptions, Transport } from '@nestjs/microservices';
import {
  CompressionTypes,
  Consumer,
  Kafka,
  KafkaConfig,
  logLevel,
  LogEntry,
  Message,
  Producer,
} from 'kafkajs';
import './kafka-idle-fix';
import './kafka-rejoin-fix';
import { createLogger } from './logging';
import { kafkaConsumerCrashes } from './metrics';

export interface KafkaSettings {
  brokers: string[];
  /** Service name: the consumer group, so every process of one service shares the work. */
  service: string;
  /** The consumer group when it is not the service name (a role's group, `consumerGroupOf`). */
  group?: string;
  instanceId: string;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** How long the broker holds a consumer's fetch when it has nothing new (KAFKA_FETCH_MAX_WAIT_MS). */
  fetchMaxWaitMs?: number;
  /**
   * How long kafkajs waits for the broker's answer to one request (and for its metadata lock); its default,
   * 30 s, when unset. Test clients wait longer: a loaded machine makes them slower, never red.
   */
  requestTimeoutMs?: number;
  /** SASL/SCRAM-SHA-512 credentials of the broker (KAFKA_SASL_USERNAME / KAFKA_SASL_PASSWORD); none: plain. */
  sasl?: { mechanism: 'scram-sha-512'; username: string; password: string };
  /** TLS to the broker (KAFKA_SSL, KAFKA_SSL_CA_FILE): true for the system's CAs, or the CA to trust. */
  ssl?: boolean | { ca: string[] };
  /** The longest wait between two tries of a Kafka operation (KAFKA_RETRY_MAX_MS); DEFAULT_KAFKA_RETRY_MAX_MS when unset. */
  retryMaxMs?: number;
}

/**
 * KAFKA_RETRY_MAX_MS's default: a process notices a broker that came back within about this long (a crashed
 * consumer starts again this long after its crash, and every retry in between is at most this far apart).
 */
export const DEFAULT_KAFKA_RETRY_MAX_MS = 1000;

const kafkaLog = createLogger('kafkajs');

/** kafkajs logs through pino, as structured lines. */
function logCreator() {
  return ({ level, log }: LogEntry) => {
    const { message, ...extra } = log;
    if (level === logLevel.ERROR) kafkaLog.error(extra, message);
    else if (level === logLevel.WARN) kafkaLog.warn(extra, message);
    else if (level === logLevel.INFO) kafkaLog.debug(extra, message);
    else kafkaLog.trace(extra, message);
  };
}

export function kafkaClientConfig(
  s: Pick<
    KafkaSettings,
    'brokers' | 'service' | 'instanceId' | 'sasl' | 'ssl' | 'requestTimeoutMs' | 'retryMaxMs'
  >,
): KafkaConfig {
  return {
    ...(s.requestTimeoutMs ? { requestTimeout: s.requestTimeoutMs } : {}),
    ...(s.sasl ? { sasl: s.sasl } : {}),
    ...(s.ssl ? { ssl: s.ssl } : {}),
    clientId: `${s.service}-${s.instanceId}`,
    brokers: s.brokers,
    logLevel: logLevel.WARN,
    logCreator,
    // Every field given: kafkajs fills the rest from defaults of its own that differ under NODE_ENV=test (a
    // 1 s cap there, 30 s elsewhere), so tests would not run what production runs. The tries of one operation
    // are 200 ms apart, doubling, then `retryMaxMs` apart: 8 retries span ~6 s at the 1 s default. When they
    // run out, a consumer crashes, and kafkajs starts it again after the last wait (at most `retryMaxMs`).
    retry: {
      initialRetryTime: 200,
      retries: 8,
      maxRetryTime: s.retryMaxMs ?? DEFAULT_KAFKA_RETRY_MAX_MS,
      multiplier: 2,
      factor: 0.2,
    },
    connectionTimeout: 3000,
  };
}

/**
 * A produce request is gzip-compressed when its messages' values reach COMPRESSION_MIN_BYTES: list replies
 * (2,000 stocks is ~2 MB of JSON) shrink about tenfold, well under the broker's message size limit. A
 * request or a small reply goes as it is: gzip's set-up per batch (a zlib stream, a trip through the thread
 * pool) was ~0.7 ms of CPU per request in the users service's profile of 1,000 pings, more than the rest
 * of the handling, to save a few hundred bytes on loopback.
 */
export const COMPRESSION_MIN_BYTES = 4096;

/** The compression of a produce request of these messages (COMPRESSION_MIN_BYTES). */
export function compressionFor(messages: readonly Pick<Message, 'value'>[]): CompressionTypes {
  let bytes = 0;
  for (const m of messages) {
    bytes += m.value?.length ?? 0;
    if (bytes >= COMPRESSION_MIN_BYTES) return CompressionTypes.GZIP;
  }
  return CompressionTypes.None;
}

/**
 * A kafkajs client whose producers choose each send's compression by its size (compressionFor): the Nest
 * server's replies and the requester's requests, which Nest sends with one `send` option for all.
 */
export function sizedCompressionClient(kafka: Kafka): Kafka {
  const producerOf = kafka.producer.bind(kafka);
  kafka.producer = (config) => {
    const producer = producerOf(config);
    const send = producer.send.bind(producer);
    producer.send = (record) => send({ ...record, compression: compressionFor(record.messages) });
    return producer;
  };
  return kafka;
}

/**
 * How many of a consumer's partitions are worked at once: every partition of a topic of deploy/topics.json's
 * usual 6. At 3, the pollers' stores of a burst's peak minute (one message per stock with new items on
 * `announcements.market-items-listed`, each store mostly waiting on its PDF and the database) queued three
 * at a time: fanned out -> stored p95 9.4 s, 1.0 s at 6 (bench/README.md, burst, 2026-12-02 10:24).
 */
export const PARTITIONS_CONSUMED_CONCURRENTLY = 6;

export const DEFAULT_FETCH_MAX_WAIT_MS = 1000;

const consumerTuning = (s: KafkaSettings) => ({
  sessionTimeout: s.sessionTimeoutMs ?? 10_000,
  heartbeatInterval: s.heartbeatIntervalMs ?? 2000,
  // The broker answers a fetch as soon as one byte arrives (minBytes 1), so this wait is only what an idle
  // consumer's fetch costs: a fetch every 100 ms from every consumer of every process kept an idle broker
  // at ~18% of a core and each idle service at ~6% (measured: six services and a broker, 30 s idle, 100 ms
  // -> 1,000 ms: broker 5.5 -> 1.3 CPU-s, services 10.9 -> 7.8). It also bounds how long disconnect() and
  // noticing a rebalance take, so it stays well under the session timeout (10 s): a second is what a stopping
  // process or a rebalance waits at most, and what `make test`'s three idle stacks save the most CPU with.
  maxWaitTimeInMs: s.fetchMaxWaitMs ?? DEFAULT_FETCH_MAX_WAIT_MS,
  allowAutoTopicCreation: false,
});

/**
 * Options of a service's Kafka server (its @MessagePattern / @EventPattern handlers): one consumer group
 * per service role, no postfix, so instances of a role share partitions and two services never share a group.
 */
export function kafkaServerOptions(s: KafkaSettings): Required<KafkaOptions> {
  const group = s.group ?? s.service;
  return {
    transport: Transport.KAFKA,
    options: {
      postfixId: '',
      client: kafkaClientConfig({ ...s, service: group }),
      consumer: { groupId: group, ...consumerTuning(s) },
      producer: { allowAutoTopicCreation: false, idempotent: false },
      subscribe: { fromBeginning: false },
      // Partitions are worked on concurrently (order is kept within each, and events are keyed by stock
      // id), so one slow request does not hold up the requests queued behind it on other partitions.
      run: { partitionsConsumedConcurrently: PARTITIONS_CONSUMED_CONCURRENTLY },
    },
  };
}

/**
 * Options of a requesting client (the gateway, tests): its own consumer group for the `<service>.reply` topics.
 * Each instance of the group owns at least one partition of each reply topic.
 */
export function kafkaRequesterOptions(s: KafkaSettings): KafkaOptions['options'] {
  return {
    postfixId: '-client',
    client: kafkaClientConfig(s),
    consumer: { groupId: s.service, ...consumerTuning(s) },
    producer: { allowAutoTopicCreation: false },
    subscribe: { fromBeginning: false },
  };
}

/** Options of an emit-only client: no consumer, no group. */
export function kafkaEmitterOptions(s: KafkaSettings): KafkaOptions['options'] {
  return { ...kafkaRequesterOptions(s), producerOnlyMode: true };
}

/** A plain kafkajs producer (outbox relay, DLQ): one request in flight keeps order; consumers are idempotent. */
export async function connectProducer(
  s: Pick<KafkaSettings, 'brokers' | 'service' | 'instanceId' | 'sasl' | 'ssl' | 'retryMaxMs'>,
): Promise<Producer> {
  const kafka = new Kafka(kafkaClientConfig({ ...s, service: `${s.service}-producer` }));
  const producer = kafka.producer({
    allowAutoTopicCreation: false,
    idempotent: false,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  return producer;
}

/** The longest wait between tries of a client's config (kafkaClientConfig): how soon to run a stopped consumer again. */
export const retryMaxMsOf = (client: KafkaConfig | undefined): number =>
  client?.retry?.maxRetryTime ?? DEFAULT_KAFKA_RETRY_MAX_MS;

export interface KeepConsumingOptions {
  /** The consumer group (the crash counter's label). */
  group: string;
  /** How long after a crash kafkajs would not restart from to run the consumer again, and between tries. */
  retryMs: number;
  /** Subscribes and runs the consumer, as its owner did at the start. */
  run: () => Promise<void>;
  /** True once the owner closes the consumer (or has replaced it): then it stays stopped. */
  closing: () => boolean;
}

/**
 * Keeps a consumer consuming across broker outages. kafkajs starts a crashed consumer again by itself only
 * when it calls the crash retriable (its retries ran out), `retryMs` later. Any other crash stops the
 * consumer for good while the process lives on, deaf: a broker that is back but has not loaded its group
 * coordinator within the lookup's retries is one (`KafkaJSGroupCoordinatorNotFound`, seen after broker
 * restarts on a busy machine). Such a consumer is run again here every `retryMs` until it runs. Every crash
 * counts in `irp_kafka_consumer_crashes_total{group, restart}` (restart: who starts it again).
 */
export function keepConsuming(consumer: Consumer, options: KeepConsumingOptions): void {
  const { group, retryMs, run, closing } = options;
  const runAgain = async () => {
    while (!closing()) {
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      if (closing()) return;
      try {
        // A crash of this run comes back as a CRASH event (handled below), not as a rejection.
        await run();
        return;
      } catch (err) {
        kafkaLog.warn({ group, err }, 'consumer did not start again; trying again');
      }
    }
  };
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    kafkaConsumerCrashes.inc({ group, restart: payload.restart ? 'kafkajs' : 'platform' });
    if (payload.restart || closing()) return;
    kafkaLog.warn(
      { group, err: payload.error },
      `consumer stopped by a crash kafkajs does not restart; running it again in ${retryMs} ms`,
    );
    void runAgain();
  });
}

/** A Kafka header's value as text (kafkajs gives a Buffer, a string, or a list of them), or undefined. */
export function headerText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (Array.isArray(value)) return headerText(value[0]);
  return String(value);
}
