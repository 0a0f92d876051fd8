import {
  HandleEvent,
  SERVICE_CONFIG,
  ServiceConfigBase,
  SingletonJobs,
  StocksBootstrap,
} from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import {
  BeforeApplicationShutdown,
  Controller,
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { StockProjectionService } from './stock-projection.service';

/** `stock.upserted` keeps the projection (ticker changes and archiving arrive as whole stocks too). */
@Controller()
export class StockEventsHandlers {
  constructor(private readonly projection: StockProjectionService) {}

  @HandleEvent(Topics.StockUpserted)
  async upserted(@Payload() stock: EventOf<typeof Topics.StockUpserted>) {
    await this.projection.apply(stock);
  }
}

/** Fills the projection from `stocks.list` at start and every few minutes (the platform's StocksBootstrap). */
@Injectable()
export class ProjectionBootstrap implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly bootstrap: StocksBootstrap;

  constructor(
    private readonly jobs: SingletonJobs,
    projection: StockProjectionService,
    @Inject(SERVICE_CONFIG) config: ServiceConfigBase,
  ) {
    this.bootstrap = new StocksBootstrap(config, {
      service: 'email-marketing',
      apply: (stock) => projection.apply(stock),
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
