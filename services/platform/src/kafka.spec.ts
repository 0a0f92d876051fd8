import { EventEmitter } from 'node:events';
import { CompressionTypes, Kafka, type Consumer, type ProducerRecord, type RetryOptions } from 'kafkajs';
import {
  COMPRESSION_MIN_BYTES,
  compressionFor,
  DEFAULT_KAFKA_RETRY_MAX_MS,
  kafkaClientConfig,
  keepConsuming,
  sizedCompressionClient,
} from './kafka';
import { kafkaConsumerCrashes } from './metrics';

// kafkajs' retrier, the one its consumers, producers and admin clients run every operation through.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createRetry = require('kafkajs/src/retry') as (
  options: RetryOptions,
) => <T>(fn: (bail: (e: Error) => void, retryCount: number, retryTime: number) => Promise<T>) => Promise<T>;

const settings = { brokers: ['127.0.0.1:1'], service: 'retry-test', instanceId: '1' };

/** The waits of an operation that always fails, and the error it ends with (carrying the restart wait). */
async function waitsOf(
  retry: RetryOptions,
): Promise<{ waits: number[]; error: Error & { retryTime?: number } }> {
  jest.useFakeTimers();
  const waits: number[] = [];
  const failure = new Error('connection refused') as Error & { retriable: boolean };
  failure.retriable = true;
  const done = createRetry(retry)(async (_bail, _count, retryTime) => {
    waits.push(retryTime);
    throw failure;
  }).catch((error: Error) => error);
  await jest.runAllTimersAsync();
  return { waits, error: (await done) as Error & { retryTime?: number } };
}

describe('kafkaClientConfig retry', () => {
  afterEach(() => jest.useRealTimers());

  it('waits at most KAFKA_RETRY_MAX_MS between tries, and a crashed consumer restarts after at most as long', async () => {
    const { waits, error } = await waitsOf(kafkaClientConfig(settings).retry!);
    expect(waits).toHaveLength(9); // the first try and 8 retries
    expect(Math.max(...waits)).toBeLessThanOrEqual(DEFAULT_KAFKA_RETRY_MAX_MS);
    // kafkajs' consumer restarts after the error's retryTime (consumer/index.js onCrash).
    expect(error.name).toBe('KafkaJSNumberOfRetriesExceeded');
    expect(error.retryTime).toBeLessThanOrEqual(DEFAULT_KAFKA_RETRY_MAX_MS);
  });

  it('gives every field, so NODE_ENV=test (kafkajs: a 1 s cap) runs what production (a 30 s cap) runs', async () => {
    const { waits } = await waitsOf(kafkaClientConfig({ ...settings, retryMaxMs: 30_000 }).retry!);
    // Doubling from 200 ms with 20% jitter: the eighth retry waits 200 * 2^7 ms, give or take the jitter.
    expect(Math.max(...waits)).toBeGreaterThan(15_000);
  });
});

/** A consumer as far as keepConsuming sees it: its CRASH event. */
function fakeConsumer() {
  const emitter = new EventEmitter();
  const consumer = {
    events: { CRASH: 'consumer.crash' },
    on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
  } as unknown as Consumer;
  const crash = (restart: boolean) =>
    emitter.emit('consumer.crash', { payload: { error: new Error('gone'), groupId: 'g', restart } });
  return { consumer, crash };
}

const crashesOf = async (group: string, restart: string) =>
  (await kafkaConsumerCrashes.get()).values.find(
    (v) => v.labels.group === group && v.labels.restart === restart,
  )?.value ?? 0;

describe('keepConsuming', () => {
  afterEach(() => jest.useRealTimers());

  it('leaves a crash kafkajs restarts to kafkajs, and counts it', async () => {
    jest.useFakeTimers();
    const { consumer, crash } = fakeConsumer();
    const run = jest.fn(async () => undefined);
    keepConsuming(consumer, { group: 'kept-a', retryMs: 1000, run, closing: () => false });
    crash(true);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).not.toHaveBeenCalled();
    expect(await crashesOf('kept-a', 'kafkajs')).toBe(1);
  });

  it('runs a consumer kafkajs stopped for good again after retryMs, until a run starts', async () => {
    jest.useFakeTimers();
    const { consumer, crash } = fakeConsumer();
    const run = jest
      .fn<Promise<void>, []>()
      .mockRejectedValueOnce(new Error('broker still away'))
      .mockResolvedValue(undefined);
    keepConsuming(consumer, { group: 'kept-b', retryMs: 1000, run, closing: () => false });
    crash(false);
    await jest.advanceTimersByTimeAsync(999);
    expect(run).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(2);
    expect(await crashesOf('kept-b', 'platform')).toBe(1);
  });

  it('leaves a consumer its owner is closing stopped', async () => {
    jest.useFakeTimers();
    const { consumer, crash } = fakeConsumer();
    let closing = false;
    const run = jest.fn(async () => undefined);
    keepConsuming(consumer, { group: 'kept-c', retryMs: 1000, run, closing: () => closing });
    crash(false);
    closing = true;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).not.toHaveBeenCalled();
  });
});

describe('compression by size (ADR 0005)', () => {
  it('sends requests and small replies plain and gzips what reaches COMPRESSION_MIN_BYTES in all', () => {
    expect(compressionFor([{ value: '{"ok":true,"data":{}}' }])).toBe(CompressionTypes.None);
    expect(compressionFor([{ value: null }])).toBe(CompressionTypes.None);
    expect(compressionFor([{ value: 'x'.repeat(COMPRESSION_MIN_BYTES) }])).toBe(CompressionTypes.GZIP);
    // A batch of small messages is as large as its sum.
    const quarter = { value: Buffer.alloc(COMPRESSION_MIN_BYTES / 4) };
    expect(compressionFor([quarter, quarter, quarter])).toBe(CompressionTypes.None);
    expect(compressionFor([quarter, quarter, quarter, quarter])).toBe(CompressionTypes.GZIP);
  });

  it("sets each send's compression on the producers of a client (the Nest server's and requester's)", async () => {
    const kafka = new Kafka({ brokers: ['127.0.0.1:1'] });
    const sent: ProducerRecord[] = [];
    const producerOf = kafka.producer.bind(kafka);
    kafka.producer = (config) => {
      const producer = producerOf(config);
      producer.send = async (record) => {
        sent.push(record);
        return [];
      };
      return producer;
    };
    const producer = sizedCompressionClient(kafka).producer();
    await producer.send({ topic: 't', compression: CompressionTypes.GZIP, messages: [{ value: 'small' }] });
    await producer.send({ topic: 't', messages: [{ value: 'x'.repeat(COMPRESSION_MIN_BYTES) }] });
    expect(sent.map((r) => r.compression)).toEqual([CompressionTypes.None, CompressionTypes.GZIP]);
  });
});
