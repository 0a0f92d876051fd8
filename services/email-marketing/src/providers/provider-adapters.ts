import { AppError, SERVICE_CONFIG } from '@irp/platform';
import type { EmailMarketingSettings } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { EmailMarketingProviderAdapter, ProviderError } from './provider';
import { providerFor } from './provider-factory';

/** A provider's failure as the caller should see it: its message; 503 when it was the provider being down. */
export function providerAppError(err: unknown): AppError {
  if (err instanceof ProviderError)
    return new AppError(err.retryable ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST', err.message);
  if (err instanceof AppError) return err;
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The email-marketing service could not be reached: ${String(err)}`,
  );
}

/** The adapter of a stock's provider type on this install's provider URLs and timeout. */
@Injectable()
export class ProviderAdapters {
  constructor(@Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig) {}

  of(settings: Pick<EmailMarketingSettings, 'provider'>): EmailMarketingProviderAdapter {
    return providerFor(settings.provider, {
      baseUrl:
        settings.provider === 'mailchimp'
          ? this.config.MAILCHIMP_BASE_URL
          : this.config.CAMPAIGN_MONITOR_BASE_URL,
      timeoutMs: this.config.PROVIDER_TIMEOUT_MS,
    });
  }
}
