import { ReplyOf, RequestCatalogue, RequestOf, RequestSpec, RequestTopic, SessionUser } from '@irp/proto';
import { signActor } from '@irp/proto/signing';
import { KafkaRequester, kafkaSettingsOf } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

/**
 * The gateway's one way to ask a service: request/reply over Kafka for every request topic in the
 * catalogue. A missing or failing service becomes a 503 with a clear message within the request timeout.
 * The actor of a request (the signed-in user a change is made for) is signed here, as late as possible:
 * services act only for an actor signed with ACTOR_SIGNING_SECRET.
 */
@Injectable()
export class ServicesClient implements OnModuleInit, OnApplicationShutdown {
  private readonly requester: KafkaRequester;
  /** Shared reads in flight, by topic and payload, with when each started. */
  private readonly inFlight = new Map<string, { startedAt: number; reply: Promise<unknown> }>();
  /** When the last mutating request through this gateway started or finished. */
  private lastWriteAt = 0;

  private readonly actorSecret: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.actorSecret = config.ACTOR_SIGNING_SECRET;
    this.requester = new KafkaRequester({
      ...kafkaSettingsOf(config, 'gateway'),
      topics: Object.keys(RequestCatalogue) as RequestTopic[],
      timeoutMs: config.KAFKA_REQUEST_TIMEOUT_MS,
    });
  }

  async onModuleInit() {
    await this.requester.connect();
  }

  async onApplicationShutdown() {
    await this.requester.close();
  }

  request<T extends RequestTopic>(topic: T, payload: RequestOf<T>, timeoutMs?: number): Promise<ReplyOf<T>> {
    const message = this.signed(payload);
    if (!(RequestCatalogue[topic] as RequestSpec).mutates)
      return this.requester.request(topic, message, timeoutMs);
    this.lastWriteAt = performance.now();
    return this.requester.request(topic, message, timeoutMs).finally(() => {
      this.lastWriteAt = performance.now();
    });
  }

  private signed<P>(payload: P): P {
    if (typeof payload !== 'object' || payload === null || !('actor' in payload)) return payload;
    const { actor } = payload as { actor: SessionUser };
    return { ...payload, actor: signActor(actor, this.actorSecret) };
  }

  /**
   * A read many callers make at the same moment (the dashboard's whole stock list): identical concurrent
   * requests share one Kafka round trip instead of queueing up at the service. A read only joins one that
   * started after the last mutating request through this gateway finished, so a user who just saved never
   * gets the list from before their save.
   */
  shared<T extends RequestTopic>(topic: T, payload: RequestOf<T>): Promise<ReplyOf<T>> {
    const key = `${topic} ${JSON.stringify(payload)}`;
    const current = this.inFlight.get(key);
    if (current && current.startedAt > this.lastWriteAt) return current.reply as Promise<ReplyOf<T>>;
    const reply = this.request(topic, payload).finally(() => {
      if (this.inFlight.get(key)?.reply === reply) this.inFlight.delete(key);
    });
    this.inFlight.set(key, { startedAt: performance.now(), reply });
    return reply;
  }
}
