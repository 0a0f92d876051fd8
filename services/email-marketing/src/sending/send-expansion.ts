import { createLogger, Outbox, UnitOfWork, type Tx } from '@irp/platform';
import type { SendExpansionRequestedEvent } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { batchKey, batchTopicOf, DELIVERY_BATCH, laneOf } from './delivery-rules';
import { chunks } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('send-requests');

/**
 * Announces `deliveryIds` of a send to the sender group through the outbox, in `tx` (so no delivery is ever
 * left without its batch message, and none is queued twice): batches of DELIVERY_BATCH numbered from
 * `firstIndex`, on the send's lane's topic. The batches, in order.
 */
export async function announceBatches(
  outbox: Outbox,
  tx: Tx,
  /** What its batch messages carry and where they go (its lane's topic: docs/adr/0016). */
  send: SendExpansionRequestedEvent,
  deliveryIds: string[],
  firstIndex: number,
): Promise<string[][]> {
  const topic = batchTopicOf(laneOf(send));
  const batches = chunks(deliveryIds, DELIVERY_BATCH);
  for (const [i, ids] of batches.entries())
    await outbox.add(tx, topic, batchKey(send.sendId, firstIndex + i), {
      sendId: send.sendId,
      stockId: send.stockId,
      deliveryIds: ids,
    });
  return batches;
}

/**
 * The second step of an announcement send's expansion (docs/adr/0019): the deliveries of every confirmed
 * subscriber its first batch did not take, announced in batches, and the send marked expanded, in one
 * transaction. A redelivered message finds the send expanded and does nothing.
 */
@Injectable()
export class ExpandSendRest {
  constructor(
    private readonly sends: SendsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  async run(event: SendExpansionRequestedEvent): Promise<void> {
    const outcome = await this.units.run(async (tx) => {
      if (!(await this.sends.markExpanded(tx, event.sendId))) return undefined;
      const rest = await this.deliveries.queueForSubscribers(tx, event);
      const batches = await announceBatches(this.outbox, tx, event, rest, 1);
      return { deliveries: rest.length, batches: batches.length };
    });
    log.info(
      { sendId: event.sendId, stockId: event.stockId, ...(outcome ?? { state: 'redelivered' }) },
      'announcement send expanded: the rest',
    );
  }
}
