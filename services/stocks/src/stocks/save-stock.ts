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
} from '@irp/proto';
import { AppError, Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockRef } from './stocks.repository';
import { StockReads } from './stock-reads';
import {
  applyFields,
  checkClientChanges,
  creationChanges,
  defaultSettings,
  diffSettings,
  EXCHANGE_FIXED_MESSAGE,
  normaliseExchange,
  notFoundMessage,
  pickSettings,
  requireAdmin,
  requireViewConfig,
  toStock,
  USE_CHANGE_TICKER_MESSAGE,
  validateSettings,
} from './stock-rules';
import { StockVersioning } from './stock-versioning';

type SaveRequest = RequestOf<typeof Topics.StocksSave>;

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);

/**
 * Saving a stock's settings (docs/api/stocks.md): an admin creates or updates any field but ticker and
 * exchange, a client saves its subset of its own stock's fields. A save that changes nothing records nothing.
 */
@Injectable()
export class SaveStock {
  constructor(
    private readonly reads: StockReads,
    private readonly versioning: StockVersioning,
  ) {}

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
   * demo data (fixed ids the users seed refers to, creation dates in the past). `within` runs in the same
   * transaction once the stock is stored (a service order marked created with it); its refusal undoes both.
   */
  async create(
    actor: Actor,
    fields: StockFields,
    {
      id,
      now = new Date(),
      within,
    }: { id?: string; now?: Date; within?: (tx: Tx, stock: Stock) => Promise<void> } = {},
  ): Promise<Stock> {
    const settings = applyFields(defaultSettings(now), fields);
    validateSettings(settings, now);
    return this.versioning.run(async (tx) => {
      const stock = await this.versioning.created(
        tx,
        { ...(id ? { id } : {}), ...settings, created: now, updatedAt: now },
        creationChanges(settings),
        actor,
        now,
      );
      await within?.(tx, stock);
      return stock;
    });
  }

  private async update(
    actor: Actor,
    ref: StockRef,
    fields: StockFields,
    mode: 'admin' | 'client',
  ): Promise<Stock> {
    const now = new Date();
    return this.versioning.run(async (tx) => {
      const current = await this.reads.require(tx, ref, true);
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
      return this.versioning.changed(tx, current, changes, actor, now);
    });
  }
}
