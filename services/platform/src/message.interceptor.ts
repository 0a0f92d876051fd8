import { ErrorCode, fail, Header, isRequestTopic, ok } from '@irp/proto';
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, Optional } from '@nestjs/common';
import { KafkaContext } from '@nestjs/microservices';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DlqPublisher } from './dlq';
import { AppError } from './errors';
import { createLogger, withCorrelationId } from './logging';
import { LOCAL_TOPIC_SCHEMAS, LocalTopicSchemas, validateIncoming } from './messages';
import { handledMessages, handlerSeconds } from './metrics';

const log = createLogger('handler');

function headerText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (Array.isArray(value)) return headerText(value[0]);
  return String(value);
}

/**
 * Wraps every Kafka handler of a service: carries the correlation id from the message headers into the
 * logs, skips requests whose requester already gave up, validates the payload against the catalogue (an
 * invalid message goes to `<topic>.dlq` with the reason), and turns the handler's result or AppError into
 * the reply envelope. Handlers stay thin: they receive validated data and return plain data.
 */
@Injectable()
export class MessageInterceptor implements NestInterceptor {
  constructor(
    private readonly dlq: DlqPublisher,
    @Optional() @Inject(LOCAL_TOPIC_SCHEMAS) private readonly local: LocalTopicSchemas = {},
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const kafka = context.switchToRpc().getContext<KafkaContext>();
    const topic = kafka.getTopic();
    const message = kafka.getMessage();
    const headers = message.headers ?? {};
    const isRequest = isRequestTopic(topic);
    const args = context.getArgs();

    return from(
      withCorrelationId(headerText(headers[Header.CorrelationId]), async () => {
        const deadline = Number(headerText(headers[Header.Deadline]));
        if (isRequest && Number.isFinite(deadline) && deadline > 0 && deadline < Date.now()) {
          handledMessages.inc({ topic, outcome: 'expired' });
          log.info({ topic }, 'skipped a request whose requester already gave up');
          return fail(ErrorCode.ServiceUnavailable, 'Request expired before it was handled');
        }
        const checked = validateIncoming(topic, args[0], this.local ?? {});
        if (!checked.ok) {
          handledMessages.inc({ topic, outcome: 'invalid' });
          await this.dlq.publish(topic, args[0], checked.reason, message.key?.toString() ?? null);
          return isRequest
            ? fail(ErrorCode.InvalidMessage, `Invalid ${topic} message: ${checked.reason}`)
            : undefined;
        }
        args[0] = checked.data;
        const timer = handlerSeconds.startTimer({ topic });
        try {
          const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
          handledMessages.inc({ topic, outcome: 'ok' });
          return isRequest ? ok(result ?? null) : undefined;
        } catch (err) {
          if (err instanceof AppError) {
            handledMessages.inc({ topic, outcome: err.code });
            if (isRequest) return fail(err.code, err.message);
          } else {
            handledMessages.inc({ topic, outcome: 'error' });
            log.error({ err, topic }, 'handler failed');
            if (isRequest) return fail(ErrorCode.Internal, 'Internal error');
          }
          // An event that could not be handled is kept for inspection and replay.
          await this.dlq.publish(
            topic,
            args[0],
            err instanceof Error ? err.message : String(err),
            message.key?.toString() ?? null,
          );
          return undefined;
        } finally {
          timer();
        }
      }),
    );
  }
}
