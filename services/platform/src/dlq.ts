import { dlqTopic, Header } from '@irp/proto';
import { IHeaders, Producer } from 'kafkajs';
import { currentCorrelationId, createLogger } from './logging';
import { compressionFor } from './kafka';
import { dlqMessages } from './metrics';

const log = createLogger('dlq');

/** Fields whose values are never copied into a DLQ message: passwords, keys, tokens, secrets (issue 34). */
const SENSITIVE_FIELD =
  /^(password|currentPassword|newPassword|apiKey|privateKey|authorization|secret|\w*Secret|\w*Token|\w*Hash)$/i;
export const REDACTED = '[redacted]';

/**
 * A message value with every sensitive field's value replaced by `[redacted]`, and the paths replaced. A
 * string or buffer holding JSON is redacted as that JSON; anything else (not JSON) has no fields to name.
 */
export function redactSensitive(value: unknown): { value: unknown; paths: string[] } {
  const paths: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, inner]) => {
        const at = path ? `${path}.${key}` : key;
        if (SENSITIVE_FIELD.test(key) && inner !== null && inner !== undefined && inner !== '') {
          paths.push(at);
          return [key, REDACTED];
        }
        return [key, walk(inner, at)];
      }),
    );
  };
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.toString());
    } catch {
      return { value, paths };
    }
    const redacted = walk(parsed, '');
    return { value: paths.length ? JSON.stringify(redacted) : value, paths };
  }
  return { value: walk(value, ''), paths };
}

/**
 * Sends a rejected message to `<topic>.dlq` with the reason, so nothing invalid is silently dropped; its
 * sensitive fields redacted (named in `x-dlq-redacted`), since a DLQ is kept for inspection and read by people.
 */
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
    const redacted = redactSensitive(value);
    const body = redacted.value;
    dlqMessages.inc({ topic: sourceTopic });
    log.warn({ topic: sourceTopic, reason }, 'message rejected to DLQ');
    const messages = [
      {
        key: key ?? null,
        value: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body ?? null),
        headers: {
          ...headers,
          [Header.DlqReason]: reason,
          [Header.DlqSourceTopic]: sourceTopic,
          [Header.CorrelationId]: currentCorrelationId() ?? '',
          ...(redacted.paths.length ? { [Header.DlqRedacted]: redacted.paths.join(',') } : {}),
        },
      },
    ];
    await this.producer.send({ topic: target, compression: compressionFor(messages), messages });
  }
}
