import { Actor, ErrorCode, Stock, Topics } from '@irp/proto';
import { AppError, Outbox, Tx, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { StockEntity } from './stock.entity';
import { StoredFieldChange } from './stock-version.entity';
import { StocksRepository, StockValues } from './stocks.repository';
import {
  API_KEY_TAKEN_MESSAGE,
  duplicateTickerMessage,
  nextUpdatedAt,
  pickSettings,
  toStock,
} from './stock-rules';

/** A unique index the database refused, as the 409 the rules promise (covers concurrent saves too). */
function conflictOf(err: unknown): AppError | undefined {
  if (!(err instanceof QueryFailedError)) return undefined;
  const driver = err.driverError as { code?: string; constraint?: string; detail?: string };
  if (driver.code !== '23505') return undefined;
  if (driver.constraint === 'stocks_api_key_unique')
    return new AppError(ErrorCode.Conflict, API_KEY_TAKEN_MESSAGE);
  if (driver.constraint === 'stocks_ticker_exchange_unique') {
    // detail: Key (ticker, exchange)=(ABC, ASX) already exists.
    const key = /=\(([^,]+), ([^)]+)\)/.exec(driver.detail ?? '');
    return new AppError(ErrorCode.Conflict, duplicateTickerMessage(key?.[1] ?? '', key?.[2] ?? ''));
  }
  return undefined;
}

/**
 * How every change of a stock is stored: the stock, its version history row and `stock.upserted` in one
 * transaction, so other services never see a change that was not made. The use cases (save, change
 * ticker, archive) decide what changes; this writes it.
 */
@Injectable()
export class StockVersioning {
  constructor(
    private readonly stocks: StocksRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** Runs a change in one transaction and turns unique-index refusals into the rules' 409s. */
  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.units.run(work);
    } catch (err) {
      throw conflictOf(err) ?? err;
    }
  }

  /** Stores a new stock as version 1 with its history row and `stock.upserted`. */
  async created(
    tx: Tx,
    values: StockValues,
    changes: StoredFieldChange[],
    actor: Actor,
    now: Date,
  ): Promise<Stock> {
    const entity = await this.stocks.insert(tx, { ...values, version: 1 });
    await this.recordVersion(tx, entity, changes, actor, now);
    const stock = toStock(entity);
    await this.outbox.add(tx, Topics.StockUpserted, stock.id, stock);
    return stock;
  }

  /** Stores a changed stock with the next version, its history row and `stock.upserted`. */
  async changed(
    tx: Tx,
    entity: StockEntity,
    changes: StoredFieldChange[],
    actor: Actor,
    now: Date,
  ): Promise<Stock> {
    entity.version += 1;
    entity.updatedAt = nextUpdatedAt(entity.updatedAt, now);
    await this.stocks.update(tx, entity.id, {
      ...pickSettings(entity),
      archived: entity.archived,
      version: entity.version,
      updatedAt: entity.updatedAt,
    });
    await this.recordVersion(tx, entity, changes, actor, now);
    const stock = toStock(entity);
    await this.outbox.add(tx, Topics.StockUpserted, stock.id, stock);
    return stock;
  }

  private async recordVersion(
    tx: Tx,
    entity: StockEntity,
    changes: StoredFieldChange[],
    actor: Actor,
    now: Date,
  ): Promise<void> {
    await this.stocks.addVersion(tx, {
      stockId: entity.id,
      versionId: entity.version,
      changedOn: now,
      changedBy: actor.username,
      changes,
    });
  }
}
