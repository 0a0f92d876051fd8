import { randomUUID } from 'node:crypto';
import { consumerGroupOf, kafkaClientConfig } from '@irp/platform';
import { Topics } from '@irp/proto';
import { commitAsTheGroup, loadTestEnv, rawProducer, skipServiceBacklogs } from '@irp/platform/testing';
import { Kafka } from 'kafkajs';

// No time budget (scripts/test.mjs): a full run's busy machine once took 62 s over this file's one test.
jest.setTimeout(300_000);

/**
 * What an earlier integration file left on a topic is not the next file's work: the services' consumer
 * groups are moved to the end of every topic they read before each file (jest.preset.js `integration`).
 */
describe('skipping the backlog between integration files', () => {
  const kafka = new Kafka(
    kafkaClientConfig({
      brokers: loadTestEnv().KAFKA_BROKERS.split(','),
      service: 'backlog-test',
      instanceId: randomUUID().slice(0, 8),
    }),
  );
  const group = consumerGroupOf('email-marketing', 'sender');
  const topic = Topics.ErrorReported;
  const committed = async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      const ends = await admin.fetchTopicOffsets(topic);
      return ends.map((e) => ({
        end: e.high,
        at: partitions.find((p) => p.partition === e.partition)?.offset ?? '-1',
      }));
    } finally {
      await admin.disconnect();
    }
  };

  it("moves a service's group past messages nobody consumed, and leaves a group at the end alone", async () => {
    // The group has read the topic to its end (committed offsets), then three messages arrive that it never
    // reads (on a fresh broker this file may run before any file has started the service).
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
    await commitAsTheGroup(
      kafka,
      group,
      ends.map((e) => ({ topic, partition: e.partition, offset: e.high })),
    );
    const producer = await rawProducer();
    try {
      for (let i = 0; i < 3; i++)
        await producer.send({
          topic,
          messages: [{ key: `backlog-${i}`, value: JSON.stringify({ key: `backlog-${i}` }) }],
        });
    } finally {
      await producer.disconnect();
    }
    const before = await committed();
    const behind = before.filter((p) => p.at !== p.end);
    expect(behind.length).toBeGreaterThan(0);

    const { moved, busy } = await skipServiceBacklogs();
    expect(busy).toEqual([]);
    expect(moved).toContain(`${group} ${topic}`);
    expect((await committed()).every((p) => p.at === p.end)).toBe(true);

    // Nothing new: nothing to move.
    expect((await skipServiceBacklogs()).moved).not.toContain(`${group} ${topic}`);
  });
});
