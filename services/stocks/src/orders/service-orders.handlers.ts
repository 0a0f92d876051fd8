import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AddressSuggestions } from './address-suggestions';
import { CreateStockFromOrder } from './create-stock-from-order';
import { ServiceOptionGroups } from './option-groups';
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
    private readonly groups: ServiceOptionGroups,
  ) {}

  @HandleRequest(Topics.StocksServiceOptions)
  async options(@Payload() req: HandledRequest<typeof Topics.StocksServiceOptions>) {
    return { options: await this.groups.offered(req.groupId) };
  }

  @HandleRequest(Topics.StocksOptionGroups)
  async optionGroups(@Payload() req: HandledRequest<typeof Topics.StocksOptionGroups>) {
    return { groups: await this.groups.list(req.actor) };
  }

  @HandleRequest(Topics.StocksSaveOptionGroup)
  async saveOptionGroup(@Payload() req: HandledRequest<typeof Topics.StocksSaveOptionGroup>) {
    return { group: await this.groups.save(req.actor, req.group) };
  }

  @HandleRequest(Topics.StocksSetDefaultOptionGroup)
  async setDefaultOptionGroup(@Payload() req: HandledRequest<typeof Topics.StocksSetDefaultOptionGroup>) {
    return { group: await this.groups.setDefault(req.actor, req.id) };
  }

  @HandleRequest(Topics.StocksArchiveOptionGroup)
  async archiveOptionGroup(@Payload() req: HandledRequest<typeof Topics.StocksArchiveOptionGroup>) {
    return { group: await this.groups.archive(req.actor, req.id, req.archived) };
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

  @HandleRequest(Topics.StocksServiceOrderEmailMarketing)
  async emailMarketing(@Payload() req: HandledRequest<typeof Topics.StocksServiceOrderEmailMarketing>) {
    return { emailMarketing: await this.reads.emailMarketingOf(req.serviceOrderId) };
  }

  @HandleRequest(Topics.StocksAddressSuggestions)
  async addressSuggestions(@Payload() req: HandledRequest<typeof Topics.StocksAddressSuggestions>) {
    return this.addresses.suggest(req.q, req.sessionToken);
  }
}
