import { StockProjection, type Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

export type { ProjectedStock } from './stock-projection.entity';

/** A stock the accounting page's select offers, with what its label shows. */
export type StockOption = Pick<
  StockProjectionEntity,
  'id' | 'combinedTicker' | 'ticker' | 'exchange' | 'websiteUrl' | 'companyName'
>;

/** The service's projection of the stocks (the platform's module); matching reads it at query time. */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, { service: 'invoicing', entity: StockProjectionEntity });
  }

  /** The stocks the accounting page's select offers: not archived, with an API key. */
  stockOptions(): Promise<StockOption[]> {
    return this.dataSource.query(
      `SELECT id, combined_ticker AS "combinedTicker", ticker, exchange, website_url AS "websiteUrl",
              company_name AS "companyName"
         FROM invoicing.stocks
        WHERE NOT archived AND COALESCE(api_key, '') <> '' ORDER BY combined_ticker`,
    );
  }

  /** Stock ids by combinedTicker (upper-cased keys) for the given ones that exist. */
  async stockIdsByTicker(combinedTickers: string[], tx?: Tx): Promise<Map<string, string>> {
    const rows: Array<Pick<StockProjectionEntity, 'id' | 'combinedTicker'>> = await (
      tx ?? this.dataSource.manager
    ).query(
      `SELECT id, combined_ticker AS "combinedTicker" FROM invoicing.stocks
        WHERE upper(combined_ticker) = ANY($1::text[])`,
      [combinedTickers.map((t) => t.toUpperCase())],
    );
    return new Map(rows.map((r) => [r.combinedTicker.toUpperCase(), r.id]));
  }
}
