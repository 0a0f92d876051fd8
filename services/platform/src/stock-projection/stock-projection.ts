import type { Stock } from '@irp/proto';
import type { Type } from '@nestjs/common';
import { DataSource, type FindOptionsOrder, type FindOptionsWhere, type Repository } from 'typeorm';
import { AppError } from '../errors';
import { createLogger } from '../logging';
import type { StockProjectionColumns } from './stock-projection.columns';
import { normalisedCombinedTicker, rowFromStock, upsertStatement } from './stock-projection-rules';

const log = createLogger('stock-projection');

export interface StockProjectionOptions<Row extends StockProjectionColumns> {
  /** The service keeping it: names its bootstrap job (`<service>:stock-projection`) and Kafka client. */
  service: string;
  /** The service's table: an entity extending StockProjectionColumns, its properties named as Stock's fields. */
  entity: Type<Row>;
  /** Columns that are not a Stock field of the same name (derived values); the rest are copied. */
  fromStock?: (stock: Stock) => Partial<Row>;
  /** Called after a stock changed the row (an event or the re-list), with the row as stored. */
  onChanged?: (row: Row) => Promise<void>;
}

/**
 * A service's projection of the stocks (event-carried state transfer: it never reads the stocks schema).
 * A service subclasses it once, naming its entity and hook; `stockProjectionRole` adds the `stock.upserted`
 * handler and the bootstrap / drift repair from `stocks.list`. Lookups are here so every service reads a
 * stock the same way.
 */
export class StockProjection<Row extends StockProjectionColumns> {
  readonly service: string;
  private statement?: { sql: string; properties: string[] };

  constructor(
    protected readonly dataSource: DataSource,
    private readonly options: StockProjectionOptions<Row>,
  ) {
    this.service = options.service;
  }

  protected get repository(): Repository<Row> {
    return this.dataSource.getRepository(this.options.entity);
  }

  /**
   * Applies a stock from `stock.upserted` or `stocks.list`: a new stock is inserted, a newer version (by
   * `updatedAt`) overwrites, an older one is ignored, the same version overwrites only a row that differs.
   * Returns the row when it changed, null otherwise. No hook: `receive` is what handlers call.
   */
  async apply(stock: Stock): Promise<Row | null> {
    const { sql, properties } = this.upsert();
    const row = Object.assign(
      new this.options.entity(),
      rowFromStock(
        stock,
        properties,
        this.options.fromStock as ((s: Stock) => Record<string, unknown>) | undefined,
      ),
    );
    const result: unknown[] = await this.dataSource.query(
      sql,
      properties.map((p) => row[p as keyof Row]),
    );
    if (!result.length) {
      log.debug({ service: this.service, stockId: stock.id }, 'stock not newer than the projection; ignored');
      return null;
    }
    return row;
  }

  /** Applies a stock, then calls the service's `onChanged` when it changed the row. True when it did. */
  async receive(stock: Stock): Promise<boolean> {
    const applied = await this.apply(stock);
    if (applied) await this.options.onChanged?.(applied);
    return applied !== null;
  }

  async byId(id: string): Promise<Row | null> {
    return this.repository.findOne({ where: { id } as FindOptionsWhere<Row> });
  }

  /** The stock, or NOT_FOUND (e.g. an event about a stock this service has not heard of yet). */
  async get(id: string): Promise<Row> {
    const stock = await this.byId(id);
    if (!stock) throw new AppError('NOT_FOUND', `Stock ${id} not found`);
    return stock;
  }

  /** A stock by its combinedTicker ('bhp' alone means BHP:ASX); BAD_REQUEST or NOT_FOUND otherwise. */
  async byCombinedTicker(combinedTicker: string): Promise<Row> {
    const normalised = normalisedCombinedTicker(combinedTicker);
    // A ticker freed by a change of ticker and taken again: the newest stock holding it.
    const stock = await this.repository.findOne({
      where: { combinedTicker: normalised } as FindOptionsWhere<Row>,
      order: { updatedAt: 'DESC' } as FindOptionsOrder<Row>,
    });
    if (!stock) throw new AppError('NOT_FOUND', `Stock ${normalised} not found`);
    return stock;
  }

  /** The statement and its parameters' properties, from the entity's metadata (built once). */
  private upsert(): { sql: string; properties: string[] } {
    if (!this.statement) {
      const { columns, tablePath } = this.repository.metadata;
      this.statement = {
        sql: upsertStatement(
          tablePath,
          columns.map((c) => c.databaseName),
        ),
        properties: columns.map((c) => c.propertyName),
      };
    }
    return this.statement;
  }
}
