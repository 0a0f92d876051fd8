import { ReplyOf, RequestCatalogue, RequestOf, RequestTopic } from '@irp/proto';
import { KafkaRequester, kafkaSettingsOf } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

/**
 * The gateway's one way to ask a service: request/reply over Kafka for every request topic in the
 * catalogue. A missing or failing service becomes a 503 with a clear message within the request timeout.
 */
@Injectable()
export class ServicesClient implements OnModuleInit, OnApplicationShutdown {
  private readonly requester: KafkaRequester;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
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
    return this.requester.request(topic, payload, timeoutMs);
  }
}
