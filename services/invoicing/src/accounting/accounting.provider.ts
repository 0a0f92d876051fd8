import { AppError, ConfigError, SERVICE_CONFIG } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { InvoicingConfig } from '../config';
import { AccountingClient } from './accounting-client';

export const NOT_CONFIGURED_MESSAGE =
  'The accounting system is not configured (ACCOUNTING_BASE_URL is not set)';

/** The accounting adapter of this process, or a clear refusal when no accounting system is configured. */
@Injectable()
export class Accounting {
  readonly client: AccountingClient | null;

  constructor(@Inject(SERVICE_CONFIG) config: InvoicingConfig) {
    if (config.ACCOUNTING_BASE_URL && !config.ACCOUNTING_TOKEN_URL)
      throw new ConfigError(
        'Invalid configuration:\n  ACCOUNTING_TOKEN_URL: required with ACCOUNTING_BASE_URL (the token endpoint of the accounting system)',
      );
    this.client =
      config.ACCOUNTING_BASE_URL && config.ACCOUNTING_TOKEN_URL
        ? new AccountingClient({
            baseUrl: config.ACCOUNTING_BASE_URL,
            tokenUrl: config.ACCOUNTING_TOKEN_URL,
            clientId: config.ACCOUNTING_CLIENT_ID,
            clientSecret: config.ACCOUNTING_CLIENT_SECRET,
            tenantId: config.ACCOUNTING_TENANT_ID,
            timeoutMs: config.ACCOUNTING_TIMEOUT_MS,
            maxConcurrent: config.ACCOUNTING_MAX_CONCURRENT,
            perMinute: config.ACCOUNTING_PER_MINUTE,
            maxRetryAfterMs: config.ACCOUNTING_MAX_RETRY_AFTER_MS,
          })
        : null;
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /** The client; SERVICE_UNAVAILABLE with the reason when there is none. */
  use(): AccountingClient {
    if (!this.client) throw new AppError(ErrorCode.ServiceUnavailable, NOT_CONFIGURED_MESSAGE);
    return this.client;
  }
}
