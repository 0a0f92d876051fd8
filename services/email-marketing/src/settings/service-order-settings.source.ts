import { kafkaSettingsOf, OnDemandRequester, SERVICE_CONFIG, ServiceConfigBase } from '@irp/platform';
import { OrderEmailMarketing, Topics } from '@irp/proto';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EmailMarketingConfig } from '../config';

/** How long the stocks service may take to answer (a handler asks again while it is away). */
const ANSWER_WITHIN_MS = 10_000;

/**
 * The email-marketing settings a service order gave, asked of the stocks service that keeps them (the key
 * sealed there, opened only for this answer): `stocks.service-order-email-marketing`, whose topics keep
 * it for minutes. Connected on the first question.
 */
@Injectable()
export class ServiceOrderSettingsSource implements OnApplicationShutdown {
  private readonly requester: OnDemandRequester;

  constructor(@Inject(SERVICE_CONFIG) config: EmailMarketingConfig & ServiceConfigBase) {
    this.requester = new OnDemandRequester({
      ...kafkaSettingsOf(config, 'email-marketing-orders'),
      topics: [Topics.StocksServiceOrderEmailMarketing],
      timeoutMs: ANSWER_WITHIN_MS,
    });
  }

  async of(serviceOrderId: string): Promise<OrderEmailMarketing | null> {
    const reply = await this.requester.request(Topics.StocksServiceOrderEmailMarketing, { serviceOrderId });
    return reply.emailMarketing;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.requester.close();
  }
}
