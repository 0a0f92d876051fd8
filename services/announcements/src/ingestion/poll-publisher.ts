import { compressionFor } from '@irp/platform';
import { EventCatalogue, Header, Topics } from '@irp/proto';
import type { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { pollRequestsPublished } from './metrics';
import type { PollRequest } from './poll-rules';

/**
 * Publishes poll work straight to Kafka, not through the outbox: it is periodic (a send that fails is
 * simply the next tick's work) and there is no state change to commit with it. One `send` of all the
 * messages, gzip like everything the platform produces: 2,000 stocks are one produce request per broker.
 * Validated against the catalogue like any produced message.
 */
export async function publishPollRequests(
  producer: Producer,
  requests: readonly PollRequest[],
  kind: 'stock' | 'market' | 'fan-out',
): Promise<void> {
  if (!requests.length) return;
  const schema = EventCatalogue[Topics.AnnouncementsPollRequested].schema;
  const correlationId = randomUUID();
  const messages = requests.map((r) => ({
    key: r.key,
    value: JSON.stringify(schema.parse(r.event)),
    headers: { [Header.CorrelationId]: correlationId },
  }));
  await producer.send({
    topic: Topics.AnnouncementsPollRequested,
    acks: -1,
    compression: compressionFor(messages),
    messages,
  });
  pollRequestsPublished.inc({ kind }, requests.length);
}
