import { EventOf, Stock, Topics } from '@irp/proto';
import {
  BeforeApplicationShutdown,
  Controller,
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
  Type,
} from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ServiceConfigBase } from '../config';
import { SERVICE_CONFIG } from '../define-service';
import { HandleEvent } from '../handlers';
import { SingletonJobs } from '../singleton-job';
import { ProjectionBootstrap } from '../projection-bootstrap';
import { stocksBootstrap } from './stocks-bootstrap';

/** What the role's handler and bootstrap need of a service's StockProjection subclass. */
interface ReceivesStocks {
  readonly service: string;
  receive(stock: Stock): Promise<boolean>;
}

export interface StockProjectionRole {
  /** The `stock.upserted` handler: put it in the role's `handlers`. */
  handlers: Type<unknown>[];
  /** The bootstrap and drift repair from `stocks.list` (a singleton job): put it in the role's `providers`. */
  providers: Type<unknown>[];
}

/**
 * What keeps a projection current, for the role that keeps it (`api` today): the `stock.upserted` handler
 * and the bootstrap from `stocks.list` on one instance, repeated every few minutes (drift repair). Ticker
 * changes and archiving need no handler of their own: the stocks service publishes the whole stock as
 * `stock.upserted` in the same transaction as `stock.ticker-changed` / `stock.archived`, and stocks are
 * never deleted. The projection class itself is a shared provider (every role reads it).
 */
export function stockProjectionRole(
  projection: Type<ReceivesStocks>,
  options: { intervalMs?: number } = {},
): StockProjectionRole {
  @Controller()
  class StockProjectionHandlers {
    constructor(@Inject(projection) private readonly stocks: ReceivesStocks) {}

    @HandleEvent(Topics.StockUpserted)
    async upserted(@Payload() stock: EventOf<typeof Topics.StockUpserted>) {
      await this.stocks.receive(stock);
    }
  }

  @Injectable()
  class StockProjectionBootstrap implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
    private readonly bootstrap: ProjectionBootstrap;

    constructor(
      private readonly jobs: SingletonJobs,
      @Inject(projection) stocks: ReceivesStocks,
      @Inject(SERVICE_CONFIG) config: ServiceConfigBase,
    ) {
      this.bootstrap = stocksBootstrap(config, {
        service: stocks.service,
        apply: (stock) => stocks.receive(stock),
        intervalMs: options.intervalMs,
      });
    }

    onModuleInit() {
      this.bootstrap.register(this.jobs);
    }

    beforeApplicationShutdown() {
      this.bootstrap.stop();
    }

    async onApplicationShutdown() {
      await this.bootstrap.close();
    }
  }

  return { handlers: [StockProjectionHandlers], providers: [StockProjectionBootstrap] };
}
