import { ErrorCode, fail, Header, isRequestTopic, ok } from '@irp/proto';
import { ACTOR_REFUSAL_TEXT, DEV_ACTOR_SIGNING_SECRET, SignedActor, verifyActor } from '@irp/proto/signing';
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, Optional } from '@nestjs/common';
import { KafkaContext } from '@nestjs/microservices';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DlqPublisher } from './dlq';
import { headerText } from './kafka';
import { AppError } from './errors';
import { createLogger, withCorrelationId } from './logging';
import { LOCAL_TOPIC_SCHEMAS, LocalTopicSchemas, validateIncoming } from './messages';
import { handledMessages, handlerRetries, handlerSeconds, handlersInFlight, refusedActors } from './metrics';
import {
  DEFAULT_HANDLER_RETRY,
  HandlerRetryPolicy,
  retryTransient,
  whileHeartbeating,
} from './reliability/handler-retry';
import { errorText } from './reliability/retry';
import { isTransientError } from './reliability/transient-errors';

/** The handler retry policy of this process (from its config); the default when none is provided. */
export const HANDLER_RETRY_POLICY = Symbol('HANDLER_RETRY_POLICY');
/** The secret actors' signatures are checked with (ACTOR_SIGNING_SECRET); the development one when none. */
export const ACTOR_SIGNING_SECRET = Symbol('ACTOR_SIGNING_SECRET');

const log = createLogger('handler');

/** The message's `actor` (requests made for a signed-in user carry one), if any. */
function actorOf(payload: unknown): SignedActor | undefined {
  if (typeof payload !== 'object' || payload === null || !('actor' in payload)) return undefined;
  return (payload as { actor: SignedActor }).actor;
}

/**
 * Wraps every Kafka handler of a service: carries the correlation id from the message headers into the
 * logs, skips requests whose requester already gave up, validates the payload against the catalogue (an
 * invalid message goes to `<topic>.dlq` with the reason), applies the reliability policy, and turns the
 * handler's result or AppError into the reply envelope. Handlers stay thin: they receive validated data
 * and return plain data. A message that names an actor is handled only when the gateway's signature of
 * that actor holds (ACTOR_SIGNING_SECRET) for this topic and this payload: anything else with access to the
 * broker could otherwise act as any user with any roles, or replay a signed actor it read on another topic or
 * with another payload; a refusal is counted (`irp_refused_actors_total`) and answered UNTRUSTED_ACTOR.
 *
 * The reliability policy: a transient failure (`isTransientError`: database or broker away, a timeout, a
 * service unavailable) is tried again with capped, jittered backoff while the consumer keeps heartbeating,
 * up to the policy's bound (minutes: a database restart is ridden out) and, for a request, never past its
 * requester's deadline. A permanent failure (validation, a rule refusal, a bug) goes to `<topic>.dlq` at
 * once, as does a transient one that outlasted the bound. Handlers must therefore be idempotent.
 */
@Injectable()
export class MessageInterceptor implements NestInterceptor {
  constructor(
    private readonly dlq: DlqPublisher,
    @Optional() @Inject(LOCAL_TOPIC_SCHEMAS) private readonly local: LocalTopicSchemas = {},
    @Optional()
    @Inject(HANDLER_RETRY_POLICY)
    private readonly policy: HandlerRetryPolicy = DEFAULT_HANDLER_RETRY,
    @Optional()
    @Inject(ACTOR_SIGNING_SECRET)
    private readonly actorSecret: string = DEV_ACTOR_SIGNING_SECRET,
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
        const deadlineHeader = Number(headerText(headers[Header.Deadline]));
        const deadline =
          isRequest && Number.isFinite(deadlineHeader) && deadlineHeader > 0 ? deadlineHeader : undefined;
        if (deadline !== undefined && deadline < Date.now()) {
          handledMessages.inc({ topic, outcome: 'expired' });
          log.info({ topic }, 'skipped a request whose requester already gave up');
          return fail(ErrorCode.ServiceUnavailable, 'Request expired before it was handled');
        }
        // The payload as it came off the broker: the actor's signature covers its digest.
        const received: unknown = args[0];
        const checked = validateIncoming(topic, received, this.local ?? {});
        if (!checked.ok) {
          handledMessages.inc({ topic, outcome: 'invalid' });
          await this.dlq.publish(topic, args[0], checked.reason, message.key?.toString() ?? null);
          return isRequest
            ? fail(ErrorCode.InvalidMessage, `Invalid ${topic} message: ${checked.reason}`)
            : undefined;
        }
        args[0] = checked.data;
        const actor = actorOf(checked.data);
        const refusal =
          actor &&
          verifyActor(actor, this.actorSecret ?? DEV_ACTOR_SIGNING_SECRET, { topic, payload: received });
        if (refusal) {
          handledMessages.inc({ topic, outcome: ErrorCode.UntrustedActor });
          refusedActors.inc({ topic, reason: refusal });
          log.warn(
            { topic, reason: refusal, username: actor.username },
            'refused a message with an unsigned actor',
          );
          if (isRequest) return fail(ErrorCode.UntrustedActor, ACTOR_REFUSAL_TEXT[refusal]);
          await this.dlq.publish(
            topic,
            args[0],
            ACTOR_REFUSAL_TEXT[refusal],
            message.key?.toString() ?? null,
          );
          return undefined;
        }
        const timer = handlerSeconds.startTimer({ topic });
        handlersInFlight.inc({ topic });
        let tries = 1;
        try {
          const result = await whileHeartbeating(kafka.getHeartbeat?.(), () =>
            retryTransient(() => lastValueFrom(next.handle(), { defaultValue: undefined }), {
              policy: this.policy ?? DEFAULT_HANDLER_RETRY,
              deadline,
              onRetry: (err, attempt, retryInMs) => {
                tries = attempt + 1;
                handlerRetries.inc({ topic });
                log.warn(
                  { topic, attempt, retryInMs, err: errorText(err) },
                  'handler failed transiently; retrying',
                );
              },
            }),
          );
          handledMessages.inc({ topic, outcome: 'ok' });
          return isRequest ? ok(result ?? null) : undefined;
        } catch (err) {
          if (err instanceof AppError) {
            handledMessages.inc({ topic, outcome: err.code });
            if (isRequest) return fail(err.code, err.message);
          } else {
            const transient = isTransientError(err);
            handledMessages.inc({ topic, outcome: 'error' });
            log.error({ err, topic, tries }, 'handler failed');
            if (isRequest)
              return transient
                ? fail(ErrorCode.ServiceUnavailable, 'Service unavailable, please try again shortly')
                : fail(ErrorCode.Internal, 'Internal error');
          }
          // An event that could not be handled is kept for inspection and replay.
          await this.dlq.publish(
            topic,
            args[0],
            tries > 1 ? `${errorText(err)} (still failing after ${tries} tries)` : errorText(err),
            message.key?.toString() ?? null,
          );
          return undefined;
        } finally {
          handlersInFlight.dec({ topic });
          timer();
        }
      }),
    );
  }
}
