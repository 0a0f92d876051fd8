import { kafkaSettingsOf, PlatformModule } from '@irp/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { STOCKS_SCHEMA, StocksConfig } from './config';
import { CreateStocks1764000000000 } from './database/migrations/1764000000000-CreateStocks';
import { RefererCountBigint1764100000000 } from './database/migrations/1764100000000-RefererCountBigint';
import { NoteEntity } from './notes/note.entity';
import { NotesHandlers } from './notes/notes.handlers';
import { NotesService } from './notes/notes.service';
import { PingHandlers } from './ping.handlers';
import { ApiHitEntity } from './referers/api-hit.entity';
import { RefererEntity } from './referers/referer.entity';
import { ReferersHandlers } from './referers/referers.handlers';
import { ReferersService } from './referers/referers.service';
import { StockEntity } from './stocks/stock.entity';
import { StockVersionEntity } from './stocks/stock-version.entity';
import { InitialPollHandlers } from './stocks/initial-poll.handlers';
import { StocksHandlers } from './stocks/stocks.handlers';
import { StocksService } from './stocks/stocks.service';

export const STOCKS_ENTITIES = [StockEntity, StockVersionEntity, NoteEntity, RefererEntity, ApiHitEntity];
export const STOCKS_MIGRATIONS = [CreateStocks1764000000000, RefererCountBigint1764100000000];

@Module({})
export class AppModule {
  static forRoot(config: StocksConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({
          kafka: kafkaSettingsOf(config, 'stocks'),
          database: {
            url: config.DATABASE_URL,
            schema: STOCKS_SCHEMA,
            entities: STOCKS_ENTITIES,
            migrations: STOCKS_MIGRATIONS,
          },
        }),
      ],
      controllers: [StocksHandlers, InitialPollHandlers, NotesHandlers, ReferersHandlers, PingHandlers],
      providers: [StocksService, NotesService, ReferersService],
    };
  }
}
