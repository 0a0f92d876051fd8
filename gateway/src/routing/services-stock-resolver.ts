import { AppError } from '@irp/platform';
import { ErrorCode, StockRef, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { STOCK_DIRECTORY, StockDirectory } from '../auth/stock-directory';
import { ServicesClient } from '../kafka/services.client';
import { StockResolver } from './stock-resolver';

/** The gateway's StockResolver: the cached directory for combinedTickers, the services for the rest. */
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
        throw new AppError(ErrorCode.BadRequest, 'A stock named by its API key cannot be checked yet');
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
