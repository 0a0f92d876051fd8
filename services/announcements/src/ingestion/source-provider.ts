import { createLogger, SERVICE_CONFIG } from '@irp/platform';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { AnnouncementsConfig } from '../config';
import { SystemSettingsService, sourceOptionsOf } from '../settings/system-settings.service';
import { createSource, type ClosableAnnouncementSource } from '../sources/source.factory';

const log = createLogger('source-provider');

/** What a cached source was made from: a change of either makes a new one. */
const settingKey = (service: string, useBrowser: boolean) => `${service}:${useBrowser ? 'browser' : 'http'}`;

/**
 * The announcement source the system settings choose (announcementService, browser mode), made once and
 * reused until the setting changes; the replaced one is closed (it may hold a browser).
 */
@Injectable()
export class SourceProvider implements OnApplicationShutdown {
  private current?: { key: string; source: Promise<ClosableAnnouncementSource> };

  constructor(
    private readonly settings: SystemSettingsService,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /** The source of the current setting (read from the settings row on every call: a change applies at once). */
  async get(): Promise<ClosableAnnouncementSource> {
    const { announcementService, useNightmare } = await this.settings.entity();
    const key = settingKey(announcementService, useNightmare);
    if (this.current?.key !== key) {
      const previous = this.current;
      // The promise is cached, so callers that ask at the same moment share one source.
      this.current = {
        key,
        source: Promise.resolve().then(() =>
          createSource(announcementService, sourceOptionsOf(this.config, useNightmare)),
        ),
      };
      if (previous) {
        log.info({ from: previous.key, to: key }, 'announcement source changed');
        void this.close(previous.source);
      }
    }
    return this.current.source;
  }

  async onApplicationShutdown(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current) await this.close(current.source);
  }

  private async close(source: Promise<ClosableAnnouncementSource>): Promise<void> {
    try {
      await (await source).close();
    } catch (err) {
      log.warn({ err }, 'closing the previous announcement source failed');
    }
  }
}
