import { StockProjection } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

/** Most companies one search answers: the editor shows a short pick list. */
const SEARCH_LIMIT = 50;

/** The service's projection of the stocks (the platform's module): permission rows and company search. */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, { service: 'users', entity: StockProjectionEntity });
  }

  /** The stocks of these ids this service knows. */
  byIds(ids: readonly string[]): Promise<StockProjectionEntity[]> {
    return ids.length ? this.repository.find({ where: { id: In([...ids]) } }) : Promise.resolve([]);
  }

  /**
   * Stocks whose combinedTicker or company name contains the text, ignoring case (spec section 9: exact
   * matching, ignoring location); a blank search lists the first ones.
   */
  search(text: string): Promise<StockProjectionEntity[]> {
    const pattern = `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.repository
      .createQueryBuilder('s')
      .where('s.combined_ticker ILIKE :pattern OR s.company_name ILIKE :pattern', { pattern })
      .orderBy('s.combined_ticker')
      .limit(SEARCH_LIMIT)
      .getMany();
  }
}
