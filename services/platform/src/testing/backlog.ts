import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';
import { kafkaClientConfig } from '../kafka';
import { serviceManifest } from '../manifest';
import { consumerGroupsOf } from '../roles';
import { loadTestEnv, TEST_KAFKA_REQUEST_TIMEOUT_MS } from './harness';
import { patientDeadline, waitedFor } from './patience';

/**
 * Moves every consumer group of the manifest's services to the end of each topic it has read: what an
 * earlier test file published and nobody consumed (an error report, a send request, a subscription mail
 * of a service that is no longer running) is not done by the next file's services. Integration test files
 * run one after the other and stop what they start, so no group has members here; one that has (a process
 * left running) is left alone and named. Run before each integration file (jest.preset.js `integration`).
 */
export async function skipServiceBacklogs(): Promise<{ moved: string[]; busy: string[] }> {
  const kafka = new Kafka(
    kafkaClientConfig({
      brokers: loadTestEnv().KAFKA_BROKERS.split(','),
      service: 'test-backlog',
      instanceId: randomUUID().slice(0, 8),
      requestTimeoutMs: TEST_KAFKA_REQUEST_TIMEOUT_MS,
    }),
  );
  const admin = kafka.admin();
  await admin.connect();
  const moved: string[] = [];
  const busy: string[] = [];
  try {
    const known = new Set((await admin.listGroups()).groups.map((g) => g.groupId));
    const groups = serviceManifest()
      .flatMap((s) => consumerGroupsOf(s))
      .filter((g) => known.has(g));
    if (!groups.length) return { moved, busy };
    const described = await admin.describeGroups(groups);
    const topics = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
    for (const group of described.groups) {
      if (group.members.length) {
        busy.push(group.groupId);
        continue;
      }
      const committed = await admin.fetchOffsets({ groupId: group.groupId, topics });
      const ends: Array<{ topic: string; partition: number; offset: string }> = [];
      for (const { topic, partitions } of committed) {
        if (!partitions.some((p) => p.offset !== '-1')) continue;
        for (const end of await admin.fetchTopicOffsets(topic)) {
          const at = partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
          if (at !== end.high) ends.push({ topic, partition: end.partition, offset: end.high });
        }
      }
      if (!ends.length) continue;
      await commitAsTheGroup(kafka, group.groupId, ends);
      moved.push(...new Set(ends.map((e) => `${group.groupId} ${e.topic}`)));
    }
  } finally {
    await admin.disconnect();
  }
  if (busy.length)
    console.warn(`consumer groups still with members at the start of a test file: ${busy.join(', ')}`);
  return { moved, busy };
}

/**
 * Commits offsets for a group that has no members: joins it as its only member (so every partition of
 * these topics is assigned here), commits, leaves. kafkajs's admin.setOffsets does the same one topic at a
 * time and waits for a fetch that a paused consumer may never make.
 */
export async function commitAsTheGroup(
  kafka: Kafka,
  groupId: string,
  offsets: Array<{ topic: string; partition: number; offset: string }>,
): Promise<void> {
  // A short fetch wait: the consumer is paused, and disconnect() waits out the fetch loop's wait (kafkajs's
  // default 5 s), which was 5 s per group with a backlog at the start of every integration file.
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
    maxWaitTimeInMs: 100,
  });
  await consumer.connect();
  try {
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.subscribe({ topics: [...new Set(offsets.map((o) => o.topic))], fromBeginning: false });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    consumer.pause([...new Set(offsets.map((o) => o.topic))].map((topic) => ({ topic })));
    const started = Date.now();
    await Promise.race([
      joined,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`${groupId}: not joined ${waitedFor(started)}`)),
          patientDeadline(20_000) - started,
        ).unref(),
      ),
    ]);
    await consumer.commitOffsets(offsets);
  } finally {
    await consumer.disconnect();
  }
}
