import { AppError, SERVICE_CONFIG } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { MarketDataClient } from './market-data-client';

export const NOT_CONFIGURED_MESSAGE =
  'The market-data provider is not configured (MARKET_DATA_BASE_URL is not set)';

/** The market-data adapter of this process, or a clear refusal when no provider is configured. */
@Injectable()
export class MarketDataProvider {
  readonly client: MarketDataClient | null;

  constructor(@Inject(SERVICE_CONFIG) config: ReportsConfig) {
    this.client = config.MARKET_DATA_BASE_URL
      ? new MarketDataClient({
          baseUrl: config.MARKET_DATA_BASE_URL,
          apiKey: config.MARKET_DATA_API_KEY,
          timeoutMs: config.MARKET_DATA_TIMEOUT_MS,
          maxConcurrent: config.MARKET_DATA_MAX_CONCURRENT,
          perMinute: config.MARKET_DATA_PER_MINUTE,
          maxAttempts: config.MARKET_DATA_MAX_ATTEMPTS,
          maxRetryAfterMs: config.MARKET_DATA_MAX_RETRY_AFTER_MS,
        })
      : null;
  }

  get configured(): boolean {
    return this.client !== null;
  }

  use(): MarketDataClient {
    if (!this.client) throw new AppError(ErrorCode.ServiceUnavailable, NOT_CONFIGURED_MESSAGE);
    return this.client;
  }
}
