import { dlqTopic, Header } from '@irp/proto';
import { IHeaders, Producer } from 'kafkajs';
import { currentCorrelationId, createLogger } from './logging';
import { MESSAGE_COMPRESSION } from './kafka';
import { dlqMessages } from './metrics';

const log = createLogger('dlq');

/** Sends a rejected message to `<topic>.dlq` with the reason, so nothing invalid is silently dropped. */
export class DlqPublisher {
  constructor(private readonly producer: Producer) {}

  async publish(
    sourceTopic: string,
    value: unknown,
    reason: string,
    key?: string | null,
    headers: IHeaders = {},
  ) {
    const target = dlqTopic(sourceTopic);
    dlqMessages.inc({ topic: sourceTopic });
    log.warn({ topic: sourceTopic, reason }, 'message rejected to DLQ');
    await this.producer.send({
      topic: target,
      compression: MESSAGE_COMPRESSION,
      messages: [
        {
          key: key ?? null,
          value: typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value ?? null),
          headers: {
            ...headers,
            [Header.DlqReason]: reason,
            [Header.DlqSourceTopic]: sourceTopic,
            [Header.CorrelationId]: currentCorrelationId() ?? '',
          },
        },
      ],
    });
  }
}
