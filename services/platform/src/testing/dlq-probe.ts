import { dlqTopic, Header } from '@irp/proto';
import { TopicProbe } from './harness';
import { topicEnds, untilProbeAtEnd } from './topic-ends';

/**
 * Listens to the `.dlq` topics of `sourceTopics` from now on. `rejected()` reads them to their ends as they
 * are when it is called and lists what arrived, as `<dlq topic>: <reason>`: a test that expects nothing in
 * the DLQ asserts `expect(await dlq.rejected()).toEqual([])` once whatever could reject has finished.
 */
export class DlqProbe {
  private constructor(
    readonly probe: TopicProbe,
    readonly topics: readonly string[],
    private readonly joinedAt: Map<string, Map<number, bigint>>,
  ) {}

  static async listen(sourceTopics: readonly string[]): Promise<DlqProbe> {
    const topics = sourceTopics.map(dlqTopic);
    const probe = await TopicProbe.listen(topics);
    const joinedAt = new Map(await Promise.all(topics.map(async (t) => [t, await topicEnds(t)] as const)));
    return new DlqProbe(probe, topics, joinedAt);
  }

  async rejected(): Promise<string[]> {
    for (const topic of this.topics) await untilProbeAtEnd(this.probe, topic, this.joinedAt.get(topic)!);
    return this.probe.received.map((m) => `${m.topic}: ${m.headers[Header.DlqReason]}`);
  }

  close(): Promise<void> {
    return this.probe.close();
  }
}
