import {
  Actor,
  combinedTickerOf,
  ErrorCode,
  INVALID_TICKER_MESSAGE,
  isValidTicker,
  normaliseTicker,
  parseCombinedTicker,
  RequestOf,
  Stock,
  StockFields,
  Topics,
  VersionHistory,
} from '@irp/proto';
import { AppError, Outbox, Tx, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { StockEntity } from './stock.entity';
import { StoredFieldChange } from './stock-version.entity';
import { StockRef, StocksRepository } from './stocks.repository';
import {
  API_KEY_TAKEN_MESSAGE,
  applyFields,
  checkClientChanges,
  creationChanges,
  defaultSettings,
  diffSettings,
  duplicateTickerMessage,
  EXCHANGE_FIXED_MESSAGE,
  nextUpdatedAt,
  normaliseExchange,
  notFoundMessage,
  pickSettings,
  requireAdmin,
  requireViewConfig,
  SAME_TICKER_MESSAGE,
  toStock,
  USE_CHANGE_TICKER_MESSAGE,
  validateSettings,
} from './stock-rules';

type SaveRequest = RequestOf<typeof Topics.StocksSave>;
type ChangeTickerRequest = RequestOf<typeof Topics.StocksChangeTicker>;
type ArchiveRequest = RequestOf<typeof Topics.StocksArchive>;

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);

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
 * The stocks and their rules (docs/api/stocks.md). Every change writes the stock, its version history
 * row and its outbox events in one transaction, so other services never see a change that was not made.
 */
@Injectable()
export class StocksService {
  constructor(
    private readonly stocks: StocksRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  // -------------------------------------------------------------------------------------------------
  // Reads

  /** The last whole list and the fingerprint of the table it was read at. */
  private listCache?: { fingerprint: string; stocks: Stock[] };

  /**
   * Every stock (the staff dashboard). The mapped list is kept while the table's fingerprint (which
   * changes with every committed change, StocksRepository.fingerprint) is unchanged.
   */
  async list(): Promise<Stock[]> {
    const fingerprint = await this.stocks.fingerprint();
    if (this.listCache?.fingerprint === fingerprint) return this.listCache.stocks;
    const stocks = (await this.stocks.all()).map(toStock);
    this.listCache = { fingerprint, stocks };
    return stocks;
  }

  async getByIds(ids: readonly string[]): Promise<Stock[]> {
    if (!ids.length) return [];
    return (await this.stocks.byIds(ids)).map(toStock);
  }

  async get(combinedTicker: string): Promise<Stock> {
    return toStock(await this.requireByCombinedTicker(combinedTicker));
  }

  async resolve(combinedTicker: string): Promise<string | null> {
    const ref = parseCombinedTicker(combinedTicker);
    if (!ref) return null;
    return this.stocks.idOf(ref);
  }

  /**
   * The stock whose product API key this is (archived too), or null. Records nothing: a widget request's
   * hit and referer are `widgetLookup`'s (referers.service.ts).
   */
  async resolveByApiKey(apiKey: string): Promise<string | null> {
    const key = apiKey.trim();
    if (!key) return null;
    return this.stocks.idByApiKey(key);
  }

  /** The stock a `TICKER:EXCHANGE` (or bare ASX `TICKER`) names, or 404 'Stock {combinedTicker} not found'. */
  async requireByCombinedTicker(combinedTicker: string): Promise<StockEntity> {
    const ref = parseCombinedTicker(combinedTicker);
    if (!ref) throw new AppError(ErrorCode.NotFound, notFoundMessage(combinedTicker.trim()));
    return this.requireStock(undefined, ref, false);
  }

  async versionHistory(combinedTicker: string): Promise<VersionHistory[]> {
    const stock = await this.requireByCombinedTicker(combinedTicker);
    const rows = await this.stocks.versions(stock.id);
    return rows.map((r) => ({
      versionId: r.versionId,
      changedOn: r.changedOn.toISOString(),
      changedBy: r.changedBy,
      changes: r.changes,
    }));
  }

  /** A random key no stock uses yet; it is stored only when a stock is saved with it. */
  async newApiKey(): Promise<string> {
    for (;;) {
      const apiKey = randomBytes(16).toString('hex');
      if (!(await this.stocks.apiKeyTaken(apiKey))) return apiKey;
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Changes

  /** Admin create (no id) or update, or a client save of its subset of fields. */
  async save(req: SaveRequest): Promise<Stock> {
    if (req.mode === 'admin') {
      requireAdmin(req.actor, 'save stock settings');
      return req.id
        ? this.update(req.actor, { id: req.id }, req.fields, 'admin')
        : this.create(req.actor, req.fields);
    }
    // Clients never see ids, so a client save names its stock by combinedTicker.
    let ref: StockRef;
    if (req.combinedTicker !== undefined) {
      const parsed = parseCombinedTicker(req.combinedTicker);
      if (!parsed) throw new AppError(ErrorCode.NotFound, notFoundMessage(req.combinedTicker.trim()));
      ref = parsed;
    } else if (req.id) ref = { id: req.id };
    else throw bad('A client save must name the stock (combinedTicker)');
    return this.update(req.actor, ref, req.fields, 'client');
  }

  /**
   * Creates a stock with the spec's defaults; version 1 lists every set field. `id` and `now` are for
   * demo data (fixed ids the users seed refers to, creation dates in the past).
   */
  async create(
    actor: Actor,
    fields: StockFields,
    { id, now = new Date() }: { id?: string; now?: Date } = {},
  ): Promise<Stock> {
    const settings = applyFields(defaultSettings(now), fields);
    validateSettings(settings, now);
    return this.write(async (m) => {
      const entity = await this.stocks.insert(m, {
        ...(id ? { id } : {}),
        ...settings,
        created: now,
        updatedAt: now,
        version: 1,
      });
      await this.recordVersion(m, entity, creationChanges(settings), actor, now);
      const stock = toStock(entity);
      await this.outbox.add(m, Topics.StockUpserted, stock.id, stock);
      return stock;
    });
  }

  async changeTicker(req: ChangeTickerRequest): Promise<Stock> {
    requireAdmin(req.actor, 'change a ticker');
    const now = new Date();
    return this.write(async (m) => {
      const current = await this.requireStock(
        m,
        { ticker: normaliseTicker(req.ticker), exchange: normaliseExchange(req.exchange) },
        true,
      );
      if (!isValidTicker(req.newTicker)) throw bad(INVALID_TICKER_MESSAGE);
      const newTicker = normaliseTicker(req.newTicker);
      if (newTicker === current.ticker) throw bad(SAME_TICKER_MESSAGE);
      const oldTicker = current.ticker;
      // Same row, same id: notes, version history and referers stay with the stock.
      current.ticker = newTicker;
      const stock = await this.commit(
        m,
        current,
        [{ fieldName: 'ticker', originalValue: oldTicker, newValue: newTicker }],
        req.actor,
        now,
      );
      await this.outbox.add(m, Topics.StockTickerChanged, stock.id, {
        id: stock.id,
        exchange: stock.exchange,
        oldTicker,
        newTicker,
        oldCombinedTicker: combinedTickerOf(oldTicker, stock.exchange),
        newCombinedTicker: stock.combinedTicker,
        changedBy: req.actor.username,
        changedAt: now.toISOString(),
      });
      return stock;
    });
  }

  /** Archives or unarchives; `archived` absent toggles. Asking for the current state changes nothing. */
  async archive(req: ArchiveRequest): Promise<Stock> {
    requireAdmin(req.actor, 'archive a stock');
    const now = new Date();
    return this.write(async (m) => {
      const current = await this.requireStock(
        m,
        { ticker: normaliseTicker(req.ticker), exchange: normaliseExchange(req.exchange) },
        true,
      );
      const archived = req.archived ?? !current.archived;
      if (archived === current.archived) return toStock(current);
      current.archived = archived;
      const stock = await this.commit(
        m,
        current,
        [{ fieldName: 'archived', originalValue: String(!archived), newValue: String(archived) }],
        req.actor,
        now,
      );
      await this.outbox.add(m, Topics.StockArchived, stock.id, {
        id: stock.id,
        combinedTicker: stock.combinedTicker,
        archived,
        changedBy: req.actor.username,
        changedAt: now.toISOString(),
      });
      return stock;
    });
  }

  // -------------------------------------------------------------------------------------------------
  // Internals

  private async update(
    actor: Actor,
    ref: StockRef,
    fields: StockFields,
    mode: 'admin' | 'client',
  ): Promise<Stock> {
    const now = new Date();
    return this.write(async (m) => {
      const current = await this.requireStock(m, ref, true);
      const combinedTicker = combinedTickerOf(current.ticker, current.exchange);
      if (mode === 'client') requireViewConfig(actor, current.id, combinedTicker);
      if (fields.ticker !== undefined) {
        if (!isValidTicker(fields.ticker)) throw bad(INVALID_TICKER_MESSAGE);
        if (normaliseTicker(fields.ticker) !== current.ticker) throw bad(USE_CHANGE_TICKER_MESSAGE);
      }
      if (fields.exchange !== undefined && normaliseExchange(fields.exchange) !== current.exchange)
        throw bad(EXCHANGE_FIXED_MESSAGE);
      const before = pickSettings(current);
      const after = applyFields(before, fields);
      const changes = diffSettings(before, after);
      const changed = changes.map((c) => c.fieldName);
      if (mode === 'client') {
        checkClientChanges(actor, current.id, combinedTicker, changed);
        validateSettings(after, now, new Set(changed));
      } else validateSettings(after, now);
      if (!changes.length) return toStock(current);
      Object.assign(current, after);
      return this.commit(m, current, changes, actor, now);
    });
  }

  /** Stores a changed stock with the next version, its history row and `stock.upserted`. */
  private async commit(
    m: Tx,
    entity: StockEntity,
    changes: StoredFieldChange[],
    actor: Actor,
    now: Date,
  ): Promise<Stock> {
    entity.version += 1;
    entity.updatedAt = nextUpdatedAt(entity.updatedAt, now);
    await this.stocks.update(m, entity.id, {
      ...pickSettings(entity),
      archived: entity.archived,
      version: entity.version,
      updatedAt: entity.updatedAt,
    });
    await this.recordVersion(m, entity, changes, actor, now);
    const stock = toStock(entity);
    await this.outbox.add(m, Topics.StockUpserted, stock.id, stock);
    return stock;
  }

  private async recordVersion(
    m: Tx,
    entity: StockEntity,
    changes: StoredFieldChange[],
    actor: Actor,
    now: Date,
  ): Promise<void> {
    await this.stocks.addVersion(m, {
      stockId: entity.id,
      versionId: entity.version,
      changedOn: now,
      changedBy: actor.username,
      changes,
    });
  }

  private async requireStock(m: Tx | undefined, ref: StockRef, lock: boolean): Promise<StockEntity> {
    const stock = await this.stocks.find(ref, { tx: m, lock });
    if (!stock)
      throw new AppError(
        ErrorCode.NotFound,
        notFoundMessage('id' in ref ? ref.id : combinedTickerOf(ref.ticker, ref.exchange)),
      );
    return stock;
  }

  /** Runs a change in one transaction and turns unique-index refusals into the rules' 409s. */
  private async write<T>(work: (m: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.units.run(work);
    } catch (err) {
      throw conflictOf(err) ?? err;
    }
  }
}
