import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process, served at /metrics. */
export const metricsRegistry = new Registry();
let defaultsCollected = false;

export function initMetrics(service: string): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry });
}

export const kafkaRequests = new Counter({
  name: 'irp_kafka_requests_total',
  help: 'Requests sent over Kafka by topic and outcome',
  labelNames: ['topic', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const kafkaRequestSeconds = new Histogram({
  name: 'irp_kafka_request_duration_seconds',
  help: 'Round trip of a Kafka request until its reply',
  labelNames: ['topic'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const kafkaConsumerCrashes = new Counter({
  name: 'irp_kafka_consumer_crashes_total',
  help: 'Crashes of a Kafka consumer of this process (the broker away longer than its retries), by consumer group and what starts it again (kafkajs, or the platform when kafkajs gives up)',
  labelNames: ['group', 'restart'] as const,
  registers: [metricsRegistry],
});

export const handledMessages = new Counter({
  name: 'irp_kafka_handled_messages_total',
  help: 'Messages handled by this service by topic and outcome',
  labelNames: ['topic', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** Messages being handled right now: a handler that hangs stays counted; tests wait for in-flight work with it. */
export const handlersInFlight = new Gauge({
  name: 'irp_kafka_handlers_in_flight',
  help: 'Messages this process is handling now, by topic (a handler that hangs stays counted)',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

export const handlerSeconds = new Histogram({
  name: 'irp_kafka_handler_duration_seconds',
  help: 'Time spent in a message handler',
  labelNames: ['topic'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [metricsRegistry],
});

export const refusedActors = new Counter({
  name: 'irp_refused_actors_total',
  help: 'Messages refused because their actor was not signed by the gateway, by topic and reason (missing, expired, bad)',
  labelNames: ['topic', 'reason'] as const,
  registers: [metricsRegistry],
});

export const handlerRetries = new Counter({
  name: 'irp_handler_retries_total',
  help: 'Tries of a handler repeated after a transient failure (database or broker away, a timeout), by topic',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

export const dlqMessages = new Counter({
  name: 'irp_dlq_messages_total',
  help: 'Messages sent to a .dlq topic',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

export const outboxPublished = new Counter({
  name: 'irp_outbox_published_total',
  help: 'Outbox events published to Kafka',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

/**
 * Set by the relay that holds a schema's outbox lock, at each batch it reads: an outbox falling behind (the
 * broker refusing, a relay stuck) shows here before any consumer misses an event. Other instances show 0.
 */
export const outboxOldestUnpublished = new Gauge({
  name: 'irp_outbox_oldest_unpublished_seconds',
  help: 'Age of the oldest outbox row not yet published, as this process relay last read it (0: none waiting, or another instance relays)',
  registers: [metricsRegistry],
});

export const outboxPruned = new Counter({
  name: 'irp_outbox_pruned_total',
  help: 'Published outbox rows deleted after their retention',
  registers: [metricsRegistry],
});

export const singletonJobHolder = new Gauge({
  name: 'irp_singleton_job_holder',
  help: '1 while this process (holder) holds the lock of a singleton job and runs it, else 0',
  labelNames: ['job', 'holder'] as const,
  registers: [metricsRegistry],
});

export const singletonJobRuns = new Counter({
  name: 'irp_singleton_job_runs_total',
  help: 'Runs of a singleton job in this process, by outcome',
  labelNames: ['job', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const vendorRateLimited = new Counter({
  name: 'irp_vendor_rate_limited_total',
  help: 'Vendor answers 429 Too Many Requests, by vendor (each attempt counts; retried while attempts remain)',
  labelNames: ['vendor'] as const,
  registers: [metricsRegistry],
});

export const vendorInvalidAnswers = new Counter({
  name: 'irp_vendor_invalid_answers_total',
  help: 'Vendor answers that are not what its API describes (not JSON, or not the schema the adapter checks), by vendor',
  labelNames: ['vendor'] as const,
  registers: [metricsRegistry],
});

export const httpRequests = new Histogram({
  name: 'irp_http_request_duration_seconds',
  help: 'HTTP requests by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

/** What `irp_dlq_depth` reads on a scrape: the DlqDepth of each service running in this process. */
export const dlqDepthSources = new Set<{ depths(): Promise<ReadonlyMap<string, number>> }>();

export const dlqDepth = new Gauge({
  name: 'irp_dlq_depth',
  help: 'Messages held in a .dlq topic this service writes to (end minus earliest retained offset), by DLQ topic',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
  async collect() {
    for (const source of dlqDepthSources)
      for (const [topic, depth] of await source.depths()) this.set({ topic }, depth);
  },
});
