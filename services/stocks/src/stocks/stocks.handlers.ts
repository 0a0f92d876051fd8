import { EXCHANGE_DIRECTORY, Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ArchiveStock } from './archive-stock';
import { ChangeTicker } from './change-ticker';
import { SaveStock } from './save-stock';
import { StockApiKeys } from './stock-api-keys';
import { StockReads } from './stock-reads';

/** Kafka entry points of stocks; each calls its use case (a file of the same name), the rules live in stock-rules.ts. */
@Controller()
export class StocksHandlers {
  constructor(
    private readonly reads: StockReads,
    private readonly apiKeys: StockApiKeys,
    private readonly saving: SaveStock,
    private readonly tickers: ChangeTicker,
    private readonly archiving: ArchiveStock,
  ) {}

  @HandleRequest(Topics.StocksList)
  list(@Payload() req: HandledRequest<typeof Topics.StocksList>) {
    return this.reads.page(req.after, req.limit);
  }

  @HandleRequest(Topics.StocksGet)
  async get(@Payload() req: HandledRequest<typeof Topics.StocksGet>) {
    return { stock: await this.reads.get(req.combinedTicker) };
  }

  @HandleRequest(Topics.StocksGetByIds)
  async getByIds(@Payload() req: HandledRequest<typeof Topics.StocksGetByIds>) {
    return { stocks: await this.reads.getByIds(req.ids) };
  }

  @HandleRequest(Topics.StocksResolve)
  async resolve(@Payload() req: HandledRequest<typeof Topics.StocksResolve>) {
    return {
      id:
        'apiKey' in req
          ? await this.apiKeys.resolveByApiKey(req.apiKey)
          : await this.reads.resolve(req.combinedTicker),
    };
  }

  @HandleRequest(Topics.StocksSave)
  async save(@Payload() req: HandledRequest<typeof Topics.StocksSave>) {
    return { stock: await this.saving.save(req) };
  }

  @HandleRequest(Topics.StocksChangeTicker)
  async changeTicker(@Payload() req: HandledRequest<typeof Topics.StocksChangeTicker>) {
    return { stock: await this.tickers.changeTicker(req) };
  }

  @HandleRequest(Topics.StocksArchive)
  async archive(@Payload() req: HandledRequest<typeof Topics.StocksArchive>) {
    return { stock: await this.archiving.archive(req) };
  }

  @HandleRequest(Topics.StocksNewApiKey)
  async newApiKey() {
    return { apiKey: await this.apiKeys.newApiKey() };
  }

  @HandleRequest(Topics.StocksExchanges)
  exchanges() {
    return { exchanges: [...EXCHANGE_DIRECTORY] };
  }

  @HandleRequest(Topics.StocksVersionHistory)
  async versionHistory(@Payload() req: HandledRequest<typeof Topics.StocksVersionHistory>) {
    return { versions: await this.reads.versionHistory(req.combinedTicker) };
  }
}
