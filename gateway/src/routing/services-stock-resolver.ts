import { AppError } from '@irp/platform';
import { ErrorCode, StockRef, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { STOCK_DIRECTORY, StockDirectory } from '../auth/stock-directory';
import { ServicesClient } from '../kafka/services.client';
import { StockResolver } from './stock-resolver';

/** The longest product API key the stocks service resolves (its request schema's limit). */
export const MAX_API_KEY_LENGTH = 100;

/**
 * The gateway's StockResolver: the cached directory for combinedTickers, the services for the rest (a
 * product API key through `stocks.resolve`, which records no widget hit).
 */
@Injectable()
export class ServicesStockResolver implements StockResolver {
  constructor(
    private readonly services: ServicesClient,
    @Inject(STOCK_DIRECTORY) private readonly directory: StockDirectory,
  ) {}

  async stockIdOf(by: Exclude<StockRef['by'], 'stockId' | undefined>, value: string): Promise<string | null> {
    switch (by) {
      case 'combinedTicker':
        return this.directory.stockIdOf(value);
      case 'commentGuid':
        return this.orNull(
          async () => (await this.services.request(Topics.CommentsGet, { guid: value })).stockId,
        );
      case 'apiKey':
        // Not cached: a replaced key must stop naming its stock at once. No stock's key is longer (and
        // asking would be refused with a 400 that names the topic).
        if (value.length > MAX_API_KEY_LENGTH) return null;
        return (await this.services.request(Topics.StocksResolve, { apiKey: value })).id;
    }
  }

  private async orNull(read: () => Promise<string>): Promise<string | null> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.NotFound) return null;
      throw err;
    }
  }
}
