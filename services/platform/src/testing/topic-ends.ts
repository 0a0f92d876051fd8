import { randomUUID } from 'node:crypto';
import { Kafka, type Admin } from 'kafkajs';
import { kafkaClientConfig } from '../kafka';
import { loadTestEnv, TEST_KAFKA_REQUEST_TIMEOUT_MS, waitUntil, type TopicProbe } from './harness';

async function withAdmin<T>(use: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = new Kafka(
    kafkaClientConfig({
      brokers: loadTestEnv().KAFKA_BROKERS.split(','),
      service: 'topic-ends',
      instanceId: randomUUID().slice(0, 8),
      requestTimeoutMs: TEST_KAFKA_REQUEST_TIMEOUT_MS,
    }),
  ).admin();
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.disconnect();
  }
}

/** The end of each partition of `topic` (the offset the next message written there gets). */
export async function topicEnds(topic: string): Promise<Map<number, bigint>> {
  const offsets = await withAdmin((admin) => admin.fetchTopicOffsets(topic));
  return new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
}

/**
 * What consumer group `group` has committed on each partition of `topic` (the next offset it will read;
 * -1 where it has committed nothing): which group took a message, once it is handled.
 */
export async function committedOffsets(group: string, topic: string): Promise<Map<number, bigint>> {
  const [committed] = await withAdmin((admin) => admin.fetchOffsets({ groupId: group, topics: [topic] }));
  return new Map((committed?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
}

/**
 * Waits until `probe` has read `topic` up to its ends as they are when this is called: every message written
 * there before the call has been received, so a count of them is final. `joinedAt` is `topicEnds(topic)` read
 * right after the probe joined (what was written before it, the probe never reads). Call it once whatever
 * writes the messages has nothing left to write (e.g. every outbox row published), not as a pause.
 */
export async function untilProbeAtEnd(
  probe: TopicProbe,
  topic: string,
  joinedAt: Map<number, bigint>,
  timeoutMs = 30_000,
): Promise<void> {
  const ends = await topicEnds(topic);
  const read = (partition: number) => {
    let next = joinedAt.get(partition) ?? 0n;
    for (const m of probe.received)
      if (m.topic === topic && m.partition === partition && BigInt(m.offset) >= next)
        next = BigInt(m.offset) + 1n;
    return next;
  };
  await waitUntil(
    `the probe read ${topic} to its end`,
    () => [...ends].every(([partition, end]) => read(partition) >= end),
    timeoutMs,
    50,
  );
}
