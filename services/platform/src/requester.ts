import {
  ErrorCode,
  formatZodIssues,
  Header,
  ReplyOf,
  RequestCatalogue,
  replyTopic,
  RequestOf,
  RequestTopic,
} from '@irp/proto';
import { ClientKafka, KafkaHeaders } from '@nestjs/microservices';
import type { EachMessagePayload } from 'kafkajs';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { AppError } from './errors';
import {
  headerText,
  KafkaSettings,
  kafkaRequesterOptions,
  keepConsuming,
  retryMaxMsOf,
  sizedCompressionClient,
} from './kafka';
import { createLogger, currentCorrelationId } from './logging';
import { validateReply } from './messages';
import { kafkaRequestSeconds, kafkaRequests } from './metrics';

const log = createLogger('requester');

export interface RequesterSettings extends KafkaSettings {
  /** Request topics this requester sends to; it reads the reply topic of each service answering them. */
  topics: readonly RequestTopic[];
  timeoutMs: number;
  /**
   * Signs a request's actor for its topic and payload (the gateway: `withSignedActor` with its
   * ACTOR_SIGNING_SECRET), given the payload as it is sent, after validation: a service checks the digest
   * of what it receives.
   */
  signActor?: <P>(topic: RequestTopic, payload: P) => P;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A reply's text as Nest decodes it: JSON when it looks like an object or array, the text otherwise. */
export function decodeReply(text: string | null): unknown {
  if (text === null) return null;
  const first = text.charAt(0);
  if (first !== '{' && first !== '[') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Nest's Kafka client with one reply topic per answering service (proto's replyTopic: `<service>.reply`,
 * named in each request's headers; Nest's own is one per request topic), its reply consumer kept consuming
 * across broker outages (keepConsuming).
 */
class ReplyConsumingClient extends ClientKafka {
  private closing = false;

  override subscribeToResponseOf(pattern: unknown): void {
    const reply = this.getResponsePatternName(this.normalizePattern(pattern as string));
    if (!this.responsePatterns.includes(reply)) this.responsePatterns.push(reply);
  }

  protected override getResponsePatternName(pattern: string): string {
    return replyTopic(pattern);
  }

  /**
   * A reply topic is read by every requester group that asks its service (the gateway and each service that
   * asks), so most replies a requester reads are other requesters'. Nest's callback parses every one (each
   * header, the value's JSON, twice `toString`) before it looks up the correlation id: the gateway's
   * profile spent more time there than in anything of ours. This one looks the correlation id up first and
   * decodes only its own replies, each value once.
   */
  override createResponseCallback(): (payload: EachMessagePayload) => Promise<void> {
    return async ({ message }) => {
      const headers = message.headers ?? {};
      const id = headerText(headers[KafkaHeaders.CORRELATION_ID]);
      const callback = id === undefined ? undefined : this.routingMap.get(id);
      if (!callback) return;
      const err = headerText(headers[KafkaHeaders.NEST_ERR]);
      if (err !== undefined) return void callback({ err: decodeReply(err), isDisposed: true });
      const response = decodeReply(message.value?.toString() ?? null);
      const isDisposed = headers[KafkaHeaders.NEST_IS_DISPOSED] !== undefined;
      callback(isDisposed ? { response, isDisposed } : { err: undefined, response });
    };
  }

  override createClient<T>(): T {
    return sizedCompressionClient(super.createClient()) as T;
  }

  protected override registerConsumerEventListeners(): void {
    super.registerConsumerEventListeners();
    const consumer = this._consumer;
    if (!consumer) return;
    this.closing = false;
    keepConsuming(consumer, {
      group: this.groupId,
      retryMs: retryMaxMsOf(this.options.client),
      run: () => this.bindTopics(),
      closing: () => this.closing || this._consumer !== consumer,
    });
  }

  override async close(): Promise<void> {
    this.closing = true;
    await super.close();
  }
}

/**
 * Request/reply over Kafka (NestJS ClientKafka underneath). Validates the request before producing and the
 * reply envelope when it arrives; a service that is missing, slow or failing becomes an AppError with a
 * clear message (SERVICE_UNAVAILABLE) within `timeoutMs`, never a hang.
 */
export class KafkaRequester {
  private readonly client: ClientKafka;

  constructor(private readonly settings: RequesterSettings) {
    this.client = new ReplyConsumingClient(kafkaRequesterOptions(settings) ?? {});
    for (const topic of settings.topics) this.client.subscribeToResponseOf(topic);
  }

  /** Connects and waits until this instance owns a partition of every reply topic. */
  async connect(waitMs = 30_000): Promise<void> {
    await this.client.connect();
    const deadline = Date.now() + waitMs;
    const replyTopics = [...new Set(this.settings.topics.map(replyTopic))];
    while (Date.now() < deadline) {
      const assigned = this.client.getConsumerAssignments();
      if (replyTopics.every((t) => assigned[t] !== undefined)) return;
      await sleep(50);
    }
    throw new Error(`Kafka reply topics were not assigned within ${waitMs} ms: ${replyTopics.join(', ')}`);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async request<T extends RequestTopic>(
    topic: T,
    payload: RequestOf<T>,
    timeoutMs = this.settings.timeoutMs,
  ): Promise<ReplyOf<T>> {
    const spec = RequestCatalogue[topic];
    const parsed = spec.request.safeParse(payload);
    if (!parsed.success) {
      // Produce-side validation: a caller bug, never sent.
      throw new AppError(ErrorCode.BadRequest, `Invalid ${topic} request: ${formatZodIssues(parsed.error)}`);
    }
    const started = process.hrtime.bigint();
    const observe = (outcome: string) => {
      kafkaRequests.inc({ topic, outcome });
      kafkaRequestSeconds.observe({ topic }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const message = {
      key: null,
      value: this.settings.signActor ? this.settings.signActor(topic, parsed.data) : parsed.data,
      headers: {
        [Header.CorrelationId]: currentCorrelationId() ?? '',
        [Header.Deadline]: String(Date.now() + timeoutMs),
      },
    };
    let envelope: unknown;
    try {
      envelope = await firstValueFrom(this.client.send(topic, message).pipe(timeout(timeoutMs)));
    } catch (err) {
      observe(err instanceof TimeoutError ? 'timeout' : 'error');
      if (err instanceof TimeoutError) {
        throw new AppError(
          ErrorCode.ServiceUnavailable,
          `The ${spec.service} service is not available right now (no answer within ${Math.round(timeoutMs / 100) / 10} s). Please try again shortly.`,
        );
      }
      log.error({ err, topic }, 'kafka request failed');
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        `The ${spec.service} service could not be reached. Please try again shortly.`,
      );
    }
    const reply = validateReply(topic, envelope);
    if (!reply.ok) {
      observe('invalid-reply');
      log.error({ topic, reason: reply.reason }, 'invalid reply');
      throw new AppError(ErrorCode.Internal, `The ${spec.service} service sent an invalid reply.`);
    }
    const valid = reply.data as
      { ok: true; data: ReplyOf<T> } | { ok: false; error: { code: ErrorCode; message: string } };
    if (!valid.ok) {
      observe(valid.error.code);
      throw new AppError(valid.error.code, valid.error.message);
    }
    observe('ok');
    return valid.data;
  }
}

/** What a caller of another service needs of a requester. */
export type Requester = Pick<KafkaRequester, 'request'>;

/**
 * A requester connected on its first request, for a service that asks another now and then (a handler, a
 * singleton job): a start never waits for the other service's reply topics, and an instance that never
 * asks never joins their group. A connection that fails is a transient SERVICE_UNAVAILABLE (a handler
 * tries again) and the next request connects afresh; `close` on shutdown, also while connecting.
 */
export class OnDemandRequester implements Requester {
  /** The requester, kept before it connects, so a close() meanwhile closes it too. */
  private current?: KafkaRequester;
  private ready?: Promise<KafkaRequester>;
  private closed = false;

  constructor(
    private readonly settings: RequesterSettings,
    private readonly connectWaitMs?: number,
  ) {}

  async request<T extends RequestTopic>(
    topic: T,
    payload: RequestOf<T>,
    timeoutMs?: number,
  ): Promise<ReplyOf<T>> {
    const requester = await this.connected();
    return requester.request(topic, payload, timeoutMs);
  }

  private connected(): Promise<KafkaRequester> {
    if (this.closed) return Promise.reject(this.unavailable('it is shutting down'));
    this.ready ??= this.connect();
    return this.ready;
  }

  private async connect(): Promise<KafkaRequester> {
    const requester = new KafkaRequester(this.settings);
    this.current = requester;
    try {
      await requester.connect(this.connectWaitMs);
    } catch (err) {
      if (this.current === requester) [this.current, this.ready] = [undefined, undefined];
      await requester.close().catch(() => undefined);
      log.warn({ err, topics: this.settings.topics }, 'requester could not connect');
      throw this.unavailable(err instanceof Error ? err.message : String(err));
    }
    if (this.closed) throw this.unavailable('it is shutting down');
    return requester;
  }

  private unavailable(why: string): AppError {
    return new AppError(
      ErrorCode.ServiceUnavailable,
      `Could not ask ${this.settings.topics.join(', ')} (${why}). Please try again shortly.`,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const requester = this.current;
    [this.current, this.ready] = [undefined, undefined];
    await requester?.close();
  }
}
