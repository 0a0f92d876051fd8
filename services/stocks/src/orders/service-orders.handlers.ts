import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AddressSuggestions } from './address-suggestions';
import { CreateStockFromOrder } from './create-stock-from-order';
import { ServiceOrderReads } from './service-order-reads';
import { SubmitServiceOrder } from './submit-service-order';

/** Kafka entry points of the service orders; each calls its use case (a file of the same name). */
@Controller()
export class ServiceOrdersHandlers {
  constructor(
    private readonly submitting: SubmitServiceOrder,
    private readonly reads: ServiceOrderReads,
    private readonly creating: CreateStockFromOrder,
    private readonly addresses: AddressSuggestions,
  ) {}

  @HandleRequest(Topics.StocksServiceOptions)
  async options(@Payload() req: HandledRequest<typeof Topics.StocksServiceOptions>) {
    return { options: await this.submitting.options(req.groupId) };
  }

  @HandleRequest(Topics.StocksSubmitServiceOrder)
  async submit(@Payload() req: HandledRequest<typeof Topics.StocksSubmitServiceOrder>) {
    return { id: await this.submitting.submit(req.form) };
  }

  @HandleRequest(Topics.StocksServiceOrders)
  async list(@Payload() req: HandledRequest<typeof Topics.StocksServiceOrders>) {
    return { serviceOrders: await this.reads.list(req.actor) };
  }

  @HandleRequest(Topics.StocksCreateFromServiceOrder)
  async createStock(@Payload() req: HandledRequest<typeof Topics.StocksCreateFromServiceOrder>) {
    return this.creating.create(req);
  }

  @HandleRequest(Topics.StocksServiceOrderOfStock)
  async ofStock(@Payload() req: HandledRequest<typeof Topics.StocksServiceOrderOfStock>) {
    return { serviceOrder: await this.reads.ofStock(req.combinedTicker) };
  }

  @HandleRequest(Topics.StocksAddressSuggestions)
  async addressSuggestions(@Payload() req: HandledRequest<typeof Topics.StocksAddressSuggestions>) {
    return this.addresses.suggest(req.q, req.sessionToken);
  }
}
