import { CompanyDto } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { StockProjectionService } from '../stocks/stock-projection.repository';

const companyOf = (stock: StockProjectionEntity): CompanyDto => ({
  stockId: stock.id,
  combinedTicker: stock.combinedTicker,
  companyName: stock.companyName,
  archived: stock.archived,
});

/** The user editor's company search, in this service's own stock projection. */
@Injectable()
export class SearchCompanies {
  constructor(private readonly stocks: StockProjectionService) {}

  async search(text: string): Promise<CompanyDto[]> {
    return (await this.stocks.search(text)).map(companyOf);
  }
}
