import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { StockEntity } from './stock.entity';
import { StockVersionEntity } from './stock-version.entity';

/** Which stock a call means: by id, or by ticker and exchange. */
export type StockRef = { id: string } | { ticker: string; exchange: string };

/** A stock's columns as written; the database fills in nothing else. */
export type StockValues = Partial<Omit<StockEntity, 'id'>> & { id?: string };

/** The stocks and their version history (one aggregate); the only place that queries their tables. */
@Injectable()
export class StocksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private stocks(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(StockEntity);
  }

  /**
   * The table's fingerprint: every change to a row strictly increases its updated_at, so the exact sum of
   * them (with the row count) changes with every committed change, whatever order transactions commit in.
   */
  async fingerprint(): Promise<string> {
    const [{ n, s }] = (await this.dataSource.query(
      'SELECT count(*)::text AS n, coalesce(sum(extract(epoch FROM updated_at)), 0)::text AS s FROM stocks.stocks',
    )) as { n: string; s: string }[];
    return `${n}/${s}`;
  }

  /** Every stock, newest first. */
  all(): Promise<StockEntity[]> {
    return this.stocks().find({ order: { created: 'DESC', id: 'ASC' } });
  }

  /** The stocks of these ids (each once), newest first. */
  byIds(ids: readonly string[]): Promise<StockEntity[]> {
    return this.stocks().find({
      where: { id: In([...new Set(ids)]) },
      order: { created: 'DESC', id: 'ASC' },
    });
  }

  async idOf(ref: { ticker: string; exchange: string }): Promise<string | null> {
    const row = await this.stocks().findOne({
      select: { id: true },
      where: { ticker: ref.ticker, exchange: ref.exchange },
    });
    return row?.id ?? null;
  }

  async idByApiKey(apiKey: string): Promise<string | null> {
    const row = await this.stocks().findOne({ select: { id: true }, where: { apiKey } });
    return row?.id ?? null;
  }

  apiKeyTaken(apiKey: string): Promise<boolean> {
    return this.stocks().exists({ where: { apiKey } });
  }

  /** The stock a ref names; with `lock`, locked for update until `tx` ends. */
  find(ref: StockRef, { tx, lock = false }: { tx?: Tx; lock?: boolean } = {}): Promise<StockEntity | null> {
    return this.stocks(tx).findOne({
      where: 'id' in ref ? { id: ref.id } : { ticker: ref.ticker, exchange: ref.exchange },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Inserts a stock and reads it back as stored. */
  async insert(tx: Tx, values: StockValues): Promise<StockEntity> {
    const inserted = await tx.insert(StockEntity, values);
    const id = (inserted.identifiers[0] as { id: string }).id;
    return tx.findOneByOrFail(StockEntity, { id });
  }

  async update(tx: Tx, id: string, values: StockValues): Promise<void> {
    await tx.update(StockEntity, { id }, values);
  }

  /** Newest version first. */
  versions(stockId: string): Promise<StockVersionEntity[]> {
    return this.dataSource
      .getRepository(StockVersionEntity)
      .find({ where: { stockId }, order: { versionId: 'DESC' } });
  }

  async addVersion(tx: Tx, version: StockVersionEntity): Promise<void> {
    await tx.insert(StockVersionEntity, version);
  }
}
