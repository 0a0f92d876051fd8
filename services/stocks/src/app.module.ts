import { defineService, SecretBox, SERVICE_CONFIG } from '@irp/platform';
import { CreateStocks1764000000000 } from './database/migrations/1764000000000-CreateStocks';
import { RefererCountBigint1764100000000 } from './database/migrations/1764100000000-RefererCountBigint';
import { DropInitialPollState1764200000000 } from './database/migrations/1764200000000-DropInitialPollState';
import { CreateServiceOrders1764300000000 } from './database/migrations/1764300000000-CreateServiceOrders';
import { ServiceOptionGroups1764400000000 } from './database/migrations/1764400000000-ServiceOptionGroups';
import { sealOrderEmailMarketingKeysMigration } from './database/migrations/1764500000000-SealOrderEmailMarketingKeys';
import { refineStocksConfig, stocksConfigSchema, stocksSecretsKey } from './config';
import { NoteEntity } from './notes/note.entity';
import { NotesHandlers } from './notes/notes.handlers';
import { NotesRepository } from './notes/notes.repository';
import { NotesService } from './notes/notes.service';
import { ApiHitEntity } from './referers/api-hit.entity';
import { RefererEntity } from './referers/referer.entity';
import { ReferersHandlers } from './referers/referers.handlers';
import { ReferersRepository } from './referers/referers.repository';
import { ReferersService } from './referers/referers.service';
import { AddressSuggestions } from './orders/address-suggestions';
import { CreateStockFromOrder } from './orders/create-stock-from-order';
import { ServiceOptionGroups } from './orders/option-groups';
import { ServiceOptionGroupEntity } from './orders/service-option-group.entity';
import { ServiceOptionEntity } from './orders/service-option.entity';
import { ServiceOrderEntity } from './orders/service-order.entity';
import { ServiceOrderReads } from './orders/service-order-reads';
import { PurgeStaleServiceOrders } from './orders/purge-stale-service-orders';
import { ServiceOrdersHandlers } from './orders/service-orders.handlers';
import { ServiceOrdersRepository } from './orders/service-orders.repository';
import { SubmitServiceOrder } from './orders/submit-service-order';
import { ArchiveStock } from './stocks/archive-stock';
import { ChangeTicker } from './stocks/change-ticker';
import { SaveStock } from './stocks/save-stock';
import { StockApiKeys } from './stocks/stock-api-keys';
import { StockEntity } from './stocks/stock.entity';
import { StockReads } from './stocks/stock-reads';
import { StockVersioning } from './stocks/stock-versioning';
import { StockVersionEntity } from './stocks/stock-version.entity';
import { StocksHandlers } from './stocks/stocks.handlers';
import { StocksRepository } from './stocks/stocks.repository';

/**
 * The stocks service: stocks, notes, referers, service orders. Boot, ping, health and metrics come from the
 * platform.
 */
export const stocksService = defineService({
  name: 'stocks',
  config: stocksConfigSchema,
  refineConfig: refineStocksConfig,
  database: (config) => ({
    entities: [
      StockEntity,
      StockVersionEntity,
      NoteEntity,
      RefererEntity,
      ApiHitEntity,
      ServiceOptionGroupEntity,
      ServiceOptionEntity,
      ServiceOrderEntity,
    ],
    migrations: [
      CreateStocks1764000000000,
      RefererCountBigint1764100000000,
      DropInitialPollState1764200000000,
      CreateServiceOrders1764300000000,
      ServiceOptionGroups1764400000000,
      sealOrderEmailMarketingKeysMigration(new SecretBox(stocksSecretsKey(config))),
    ],
  }),
  providers: [
    {
      provide: SecretBox,
      useFactory: (config: Parameters<typeof stocksSecretsKey>[0]) => new SecretBox(stocksSecretsKey(config)),
      inject: [SERVICE_CONFIG],
    },
    StocksRepository,
    NotesRepository,
    ReferersRepository,
    StockReads,
    StockApiKeys,
    StockVersioning,
    SaveStock,
    ChangeTicker,
    ArchiveStock,
    NotesService,
    ReferersService,
    ServiceOrdersRepository,
    SubmitServiceOrder,
    ServiceOptionGroups,
    ServiceOrderReads,
    CreateStockFromOrder,
    AddressSuggestions,
    PurgeStaleServiceOrders,
  ],
  roles: { api: { handlers: [StocksHandlers, NotesHandlers, ReferersHandlers, ServiceOrdersHandlers] } },
});
