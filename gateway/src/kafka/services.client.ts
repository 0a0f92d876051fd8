import { ReplyOf, RequestCatalogue, RequestOf, RequestSpec, RequestTopic } from '@irp/proto';
import { withSignedActor } from '@irp/proto/signing';
import { KafkaRequester, kafkaSettingsOf } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

/**
 * The gateway's one way to ask a service: request/reply over Kafka for every request topic in the
 * catalogue. A missing or failing service becomes a 503 with a clear message within the request timeout.
 * The actor of a request (the signed-in user a change is made for) is signed as late as possible, by the
 * requester as it sends the validated payload, for that topic and payload (a fresh message id each time):
 * services act only for an actor signed with ACTOR_SIGNING_SECRET for the message it came in.
 */
@Injectable()
export class ServicesClient implements OnModuleInit, OnApplicationShutdown {
  private readonly requester: KafkaRequester;
  /** Shared reads in flight, by key (a request's topic and payload), with when each started. */
  private readonly inFlight = new Map<string, { startedAt: number; reply: Promise<unknown> }>();
  /** When the last mutating request through this gateway started or finished. */
  private lastWriteAt = 0;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.requester = new KafkaRequester({
      ...kafkaSettingsOf(config, 'gateway'),
      topics: Object.keys(RequestCatalogue) as RequestTopic[],
      timeoutMs: config.KAFKA_REQUEST_TIMEOUT_MS,
      signActor: (topic, payload) => withSignedActor(topic, payload, config.ACTOR_SIGNING_SECRET),
    });
  }

  async onModuleInit() {
    await this.requester.connect();
  }

  async onApplicationShutdown() {
    await this.requester.close();
  }

  request<T extends RequestTopic>(topic: T, payload: RequestOf<T>, timeoutMs?: number): Promise<ReplyOf<T>> {
    if (!(RequestCatalogue[topic] as RequestSpec).mutates)
      return this.requester.request(topic, payload, timeoutMs);
    this.lastWriteAt = performance.now();
    return this.requester.request(topic, payload, timeoutMs).finally(() => {
      this.lastWriteAt = performance.now();
    });
  }

  /**
   * A read many callers make at the same moment (the dashboard's stock list): identical concurrent
   * requests share one Kafka round trip instead of queueing up at the service (`sharedRead`).
   */
  shared<T extends RequestTopic>(topic: T, payload: RequestOf<T>): Promise<ReplyOf<T>> {
    return this.sharedRead(`${topic} ${JSON.stringify(payload)}`, () => this.request(topic, payload));
  }

  /**
   * Work that only reads, made once for every caller asking with the same `key` while it is under way
   * (the staff list composed from its pages and columns). A caller only joins work that started after
   * the last mutating request through this gateway finished, so a user who just saved never gets what was
   * read before their save. The callers share the answer: none may change it.
   */
  sharedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
    const current = this.inFlight.get(key);
    if (current && current.startedAt > this.lastWriteAt) return current.reply as Promise<T>;
    const reply = read().finally(() => {
      if (this.inFlight.get(key)?.reply === reply) this.inFlight.delete(key);
    });
    this.inFlight.set(key, { startedAt: performance.now(), reply });
    return reply;
  }
}
