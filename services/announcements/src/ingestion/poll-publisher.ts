import { compressionFor } from '@irp/platform';
import { EventCatalogue, Header, Topics } from '@irp/proto';
import type { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { pollRequestsPublished } from './metrics';
import type { MarketItemsListed, PollRequest } from './poll-rules';

/** What publishPollWork publishes: the scheduler's poll requests, or a market read's fan-out. */
type PollWorkOf =
  | {
      topic: typeof Topics.AnnouncementsPollRequested;
      kind: 'stock' | 'market';
      requests: readonly PollRequest[];
    }
  | {
      topic: typeof Topics.AnnouncementsMarketItemsListed;
      kind: 'fan-out';
      requests: readonly MarketItemsListed[];
    };

/**
 * Publishes poll work straight to Kafka, not through the outbox: it is periodic (a send that fails is
 * simply the next tick's work) and there is no state change to commit with it. One `send` of all the
 * messages, gzip like everything the platform produces: 2,000 stocks are one produce request per broker.
 * Validated against the catalogue like any produced message.
 */
export async function publishPollWork(producer: Producer, work: PollWorkOf): Promise<void> {
  if (!work.requests.length) return;
  const schema = EventCatalogue[work.topic].schema;
  const correlationId = randomUUID();
  const messages = work.requests.map((r) => ({
    key: r.key,
    value: JSON.stringify(schema.parse(r.event)),
    headers: { [Header.CorrelationId]: correlationId },
  }));
  await producer.send({
    topic: work.topic,
    acks: -1,
    compression: compressionFor(messages),
    messages,
  });
  pollRequestsPublished.inc({ kind: work.kind }, work.requests.length);
}
