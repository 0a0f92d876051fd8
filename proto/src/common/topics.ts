/**
 * Topic naming. Request topics are `<service>.<verb-noun>`, events are `<entity>.<past-tense>`, and every
 * topic has a `.dlq` for messages that failed validation. Call sites use the `Topics` constants of proto's
 * index, never string literals.
 *
 * Replies: one topic per answering service, `<service>.reply`, for all of its request topics (a request
 * names its reply topic and partition in its headers). A requester's reply consumer fetches every partition
 * of the reply topics it reads each time a reply arrives; one topic per request topic made the gateway's
 * fetch 109 topics (654 partitions at 6 each), and that fetch, on the broker and in kafkajs, was most of a
 * request's round trip (bench/README.md, auth-roundtrip). A service writes only its own reply topic.
 */
export const replyTopic = (topic: string): string => `${topic.slice(0, topic.indexOf('.'))}.reply`;
export const dlqTopic = (topic: string): string => `${topic}.dlq`;

export interface TopicPlan {
  name: string;
  partitions: number;
}

export interface TopicPlanOptions {
  /** Partitions of request and event topics (consumer instances of one service can scale to this). */
  partitions?: number;
  /** Partitions of `<service>.reply` topics: at least the number of gateway instances. */
  replyPartitions?: number;
}

/**
 * The topics to create for these request and event topics: each request topic with its `.dlq`, the reply
 * topic of each service answering them (once), each event topic with its `.dlq`.
 */
export function planTopics(
  requestTopics: readonly string[],
  eventTopics: readonly string[],
  { partitions = 3, replyPartitions = 4 }: TopicPlanOptions = {},
): TopicPlan[] {
  const plan: TopicPlan[] = [];
  const replies = new Set<string>();
  for (const topic of requestTopics) {
    plan.push({ name: topic, partitions });
    if (!replies.has(replyTopic(topic))) {
      replies.add(replyTopic(topic));
      plan.push({ name: replyTopic(topic), partitions: Math.max(replyPartitions, 1) });
    }
    plan.push({ name: dlqTopic(topic), partitions: 1 });
  }
  for (const topic of eventTopics) {
    plan.push({ name: topic, partitions });
    plan.push({ name: dlqTopic(topic), partitions: 1 });
  }
  return plan;
}
