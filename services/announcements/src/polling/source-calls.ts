import { createLogger, errorText, SERVICE_CONFIG, UnitOfWork, withTimeout } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { AnnouncementsConfig } from '../config';
import { ErrorReporter } from '../error-reports/error-reporter';
import { SourceHealth } from '../source-health/source-health';
import { SourceHealthRepository } from '../source-health/source-health.repository';
import type { AnnouncementSource } from '../sources/source';
import { withSourceRetries } from '../sources/source-retries';

const log = createLogger('poller');

export type SourceCall<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A poll's source calls: with backoff on failure (SOURCE_RETRY_DELAYS_MS), each try bounded by
 * SOURCE_TIMEOUT_MS; the outcome is counted in the source's health, so a source that fails is reported
 * once per streak and the message is done (the next tick polls again).
 */
@Injectable()
export class SourceCalls {
  private readonly health: SourceHealth;

  constructor(
    healthRows: SourceHealthRepository,
    unitOfWork: UnitOfWork,
    reporter: ErrorReporter,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {
    this.health = new SourceHealth(healthRows, unitOfWork, reporter, config.SOURCE_FAILURE_STREAK);
  }

  async call<T>(source: AnnouncementSource, what: string, call: () => Promise<T>): Promise<SourceCall<T>> {
    try {
      const value = await withSourceRetries(
        () => withTimeout(call(), this.config.SOURCE_TIMEOUT_MS + 1000, what),
        {
          onRetry: (error, attempt, delayMs) =>
            log.info(
              { source: source.name, what, attempt, delayMs, err: errorText(error) },
              'source call failed; retrying',
            ),
        },
      );
      await this.health.succeeded(source.name);
      return { ok: true, value };
    } catch (error) {
      const text = errorText(error);
      await this.health.failed(source.name, `${what}: ${text}`);
      return { ok: false, error: text };
    }
  }
}
