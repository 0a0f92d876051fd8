import { EXCHANGE_DIRECTORY, RequestOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { StocksService } from './stocks.service';

/** Kafka entry points of stocks; the rules live in StocksService and stock-rules.ts. */
@Controller()
export class StocksHandlers {
  constructor(private readonly stocks: StocksService) {}

  @MessagePattern(Topics.StocksList)
  async list() {
    return { stocks: await this.stocks.list() };
  }

  @MessagePattern(Topics.StocksGet)
  async get(@Payload() req: RequestOf<typeof Topics.StocksGet>) {
    return { stock: await this.stocks.get(req.combinedTicker) };
  }

  @MessagePattern(Topics.StocksGetByIds)
  async getByIds(@Payload() req: RequestOf<typeof Topics.StocksGetByIds>) {
    return { stocks: await this.stocks.getByIds(req.ids) };
  }

  @MessagePattern(Topics.StocksResolve)
  async resolve(@Payload() req: RequestOf<typeof Topics.StocksResolve>) {
    return { id: await this.stocks.resolve(req.combinedTicker) };
  }

  @MessagePattern(Topics.StocksSave)
  async save(@Payload() req: RequestOf<typeof Topics.StocksSave>) {
    return { stock: await this.stocks.save(req) };
  }

  @MessagePattern(Topics.StocksChangeTicker)
  async changeTicker(@Payload() req: RequestOf<typeof Topics.StocksChangeTicker>) {
    return { stock: await this.stocks.changeTicker(req) };
  }

  @MessagePattern(Topics.StocksArchive)
  async archive(@Payload() req: RequestOf<typeof Topics.StocksArchive>) {
    return { stock: await this.stocks.archive(req) };
  }

  @MessagePattern(Topics.StocksNewApiKey)
  async newApiKey() {
    return { apiKey: await this.stocks.newApiKey() };
  }

  @MessagePattern(Topics.StocksExchanges)
  exchanges() {
    return { exchanges: EXCHANGE_DIRECTORY };
  }

  @MessagePattern(Topics.StocksVersionHistory)
  async versionHistory(@Payload() req: RequestOf<typeof Topics.StocksVersionHistory>) {
    return { versions: await this.stocks.versionHistory(req.combinedTicker) };
  }
}
