/**
 * Topic naming. Request topics are `<service>.<verb-noun>` (each has a `.reply` topic), events are
 * `<entity>.<past-tense>`, and every topic has a `.dlq` for messages that failed validation. Call sites use
 * the `Topics` constants of proto's index, never string literals.
 */
export const replyTopic = (topic: string): string => `${topic}.reply`;
export const dlqTopic = (topic: string): string => `${topic}.dlq`;

export interface TopicPlan {
  name: string;
  partitions: number;
}

export interface TopicPlanOptions {
  /** Partitions of request and event topics (consumer instances of one service can scale to this). */
  partitions?: number;
  /** Partitions of `.reply` topics: at least the number of gateway instances. */
  replyPartitions?: number;
}

/**
 * The topics to create for these request and event topics: each request topic with its `.reply` and
 * `.dlq`, each event topic with its `.dlq`.
 */
export function planTopics(
  requestTopics: readonly string[],
  eventTopics: readonly string[],
  { partitions = 3, replyPartitions = 4 }: TopicPlanOptions = {},
): TopicPlan[] {
  const plan: TopicPlan[] = [];
  for (const topic of requestTopics) {
    plan.push({ name: topic, partitions });
    plan.push({ name: replyTopic(topic), partitions: Math.max(replyPartitions, 1) });
    plan.push({ name: dlqTopic(topic), partitions: 1 });
  }
  for (const topic of eventTopics) {
    plan.push({ name: topic, partitions });
    plan.push({ name: dlqTopic(topic), partitions: 1 });
  }
  return plan;
}
