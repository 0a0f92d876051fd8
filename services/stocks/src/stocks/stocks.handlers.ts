import { EXCHANGE_DIRECTORY, Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { StocksService } from './stocks.service';

/** Kafka entry points of stocks; the rules live in StocksService and stock-rules.ts. */
@Controller()
export class StocksHandlers {
  constructor(private readonly stocks: StocksService) {}

  @HandleRequest(Topics.StocksList)
  async list() {
    return { stocks: await this.stocks.list() };
  }

  @HandleRequest(Topics.StocksGet)
  async get(@Payload() req: HandledRequest<typeof Topics.StocksGet>) {
    return { stock: await this.stocks.get(req.combinedTicker) };
  }

  @HandleRequest(Topics.StocksGetByIds)
  async getByIds(@Payload() req: HandledRequest<typeof Topics.StocksGetByIds>) {
    return { stocks: await this.stocks.getByIds(req.ids) };
  }

  @HandleRequest(Topics.StocksResolve)
  async resolve(@Payload() req: HandledRequest<typeof Topics.StocksResolve>) {
    return {
      id:
        'apiKey' in req
          ? await this.stocks.resolveByApiKey(req.apiKey)
          : await this.stocks.resolve(req.combinedTicker),
    };
  }

  @HandleRequest(Topics.StocksSave)
  async save(@Payload() req: HandledRequest<typeof Topics.StocksSave>) {
    return { stock: await this.stocks.save(req) };
  }

  @HandleRequest(Topics.StocksChangeTicker)
  async changeTicker(@Payload() req: HandledRequest<typeof Topics.StocksChangeTicker>) {
    return { stock: await this.stocks.changeTicker(req) };
  }

  @HandleRequest(Topics.StocksArchive)
  async archive(@Payload() req: HandledRequest<typeof Topics.StocksArchive>) {
    return { stock: await this.stocks.archive(req) };
  }

  @HandleRequest(Topics.StocksNewApiKey)
  async newApiKey() {
    return { apiKey: await this.stocks.newApiKey() };
  }

  @HandleRequest(Topics.StocksExchanges)
  exchanges() {
    return { exchanges: [...EXCHANGE_DIRECTORY] };
  }

  @HandleRequest(Topics.StocksVersionHistory)
  async versionHistory(@Payload() req: HandledRequest<typeof Topics.StocksVersionHistory>) {
    return { versions: await this.stocks.versionHistory(req.combinedTicker) };
  }
}
