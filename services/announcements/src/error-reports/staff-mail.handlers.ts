import { EventOf, marketDataFailedMail, newOrderMail, Topics } from '@irp/proto';
import { HandleEvent } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ErrorReporter } from './error-reporter';

/**
 * Staff mail about things other services publish, to the one staff address the portal has: the system
 * settings' error email, which this service owns (sent by email-marketing from `error.reported`).
 */
@Controller()
export class StaffMailHandlers {
  constructor(private readonly reporter: ErrorReporter) {}

  /** A new service order from the public form (stocks service): once per order. */
  @HandleEvent(Topics.ServiceOrderSubmitted)
  async serviceOrderSubmitted(@Payload() event: EventOf<typeof Topics.ServiceOrderSubmitted>) {
    const { subject, message } = newOrderMail(event.order);
    await this.reporter.report(`service-order:${event.order.id}`, subject, message);
  }

  /** The market-data provider stayed unavailable for a job of the reports service: once per report key. */
  @HandleEvent(Topics.MarketDataFailed)
  async marketDataFailed(@Payload() event: EventOf<typeof Topics.MarketDataFailed>) {
    const { subject, message } = marketDataFailedMail(event);
    await this.reporter.report(`market-data:${event.key}`, subject, message);
  }
}
