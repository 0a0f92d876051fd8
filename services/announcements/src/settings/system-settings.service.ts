import { Actor, AnnouncementService, isEmailAddress, SystemSettings, Topics } from '@irp/proto';
import { AppError, Outbox, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { configuredFeeds, type AnnouncementsConfig } from '../config';
import { sourceConfigProblem } from '../sources/source.factory';
import { typedDate } from '../sydney-time';
import { SYSTEM_SETTINGS_KEY, systemSettingsSaved } from './publish-system-settings';
import { SystemSettingsEntity } from './system-settings.entity';
import { SystemSettingsRepository } from './system-settings.repository';

/** Limits of a fresh install: generous enough never to hold back a normal day, low enough to stop a flood. */
export const DEFAULT_HOURLY_AUTO_SEND_LIMIT = 10;
export const DEFAULT_DAILY_AUTO_SEND_LIMIT = 30;

/** What the service's source options are, from its config (the source factory's input). */
export function sourceOptionsOf(config: AnnouncementsConfig, useBrowser: boolean) {
  return {
    asxBaseUrl: config.ASX_BASE_URL,
    asx2BaseUrl: config.ASX2_BASE_URL ?? config.ASX_BASE_URL,
    westpacBaseUrl: config.WESTPAC_BASE_URL,
    iressBaseUrl: config.IRESS_BASE_URL,
    maxPdfBytes: config.MAX_PDF_BYTES,
    timeoutMs: config.SOURCE_TIMEOUT_MS,
    documentHosts: config.DOCUMENT_HOSTS,
    maxConcurrent: config.SOURCE_MAX_CONCURRENT,
    perMinute: config.SOURCE_MAX_PER_MINUTE,
    useBrowser,
    chromiumPath: config.CHROMIUM_PATH,
    production: config.NODE_ENV === 'production',
  };
}

/**
 * System settings (spec section 3): one row, created with defaults on first read. Read by the pollers
 * (source, disable-poll-until, browser mode), auto-send (limits) and error reports (error email).
 */
@Injectable()
export class SystemSettingsService {
  constructor(
    private readonly settings: SystemSettingsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  private defaults(): SystemSettingsEntity {
    // Production has a feed (refineAnnouncementsConfig): never mock there.
    const service: AnnouncementService =
      this.config.DEFAULT_ANNOUNCEMENT_SERVICE ?? configuredFeeds(this.config)[0] ?? 'mock';
    return Object.assign(new SystemSettingsEntity(), {
      id: 1,
      announcementService: service,
      errorEmail: '',
      hourlyAutoSendLimit: DEFAULT_HOURLY_AUTO_SEND_LIMIT,
      dailyAutoSendLimit: DEFAULT_DAILY_AUTO_SEND_LIMIT,
      disablePollUntil: null,
      useNightmare: false,
      updatedAt: new Date(),
      updatedBy: '',
    });
  }

  /** The settings row (created with the defaults when there is none yet). */
  async entity(): Promise<SystemSettingsEntity> {
    return this.settings.getOrCreate(() => this.defaults());
  }

  async get(): Promise<SystemSettings> {
    return toSettings(await this.entity());
  }

  /**
   * Saves every field; refuses a source that cannot work as configured, naming the missing setting, and the
   * mock source in production. Publishes `system-settings.saved` in the same transaction, for the
   * email-marketing service's copy of the error email (docs/adr/0013).
   */
  async save(
    actor: Actor,
    input: {
      announcementService: AnnouncementService;
      errorEmail: string;
      hourlyAutoSendLimit: number;
      dailyAutoSendLimit: number;
      disablePollUntil: string | null;
      useNightmare: boolean;
    },
  ): Promise<SystemSettings> {
    if (!actor.roles.includes('Admin'))
      throw new AppError('FORBIDDEN', 'Only admins may change system settings');
    const problem = sourceConfigProblem(
      input.announcementService,
      sourceOptionsOf(this.config, input.useNightmare),
    );
    if (problem) throw new AppError('BAD_REQUEST', problem);
    const errorEmail = input.errorEmail.trim();
    // The portal's one address rule (a 264-character address passed this service's own pattern: issue 34).
    if (errorEmail && !isEmailAddress(errorEmail)) {
      throw new AppError('BAD_REQUEST', `Error email ${errorEmail} is not an email address`);
    }
    let disablePollUntil: Date | null = null;
    if (input.disablePollUntil && input.disablePollUntil.trim()) {
      const typed = typedDate(input.disablePollUntil);
      if ('problem' in typed) throw new AppError('BAD_REQUEST', typed.problem);
      disablePollUntil = typed.date;
    }
    await this.entity();
    await this.units.run(async (m) => {
      // Locked, so saves commit one at a time; each saved after the one before it even when this pod's clock
      // is behind the pod that saved that one: a projection keeping the newest savedAt keeps the last save.
      const previous = await this.settings.find(m, true);
      const savedAt = new Date(Math.max(Date.now(), (previous?.updatedAt.getTime() ?? 0) + 1));
      await this.settings.update(m, {
        announcementService: input.announcementService,
        errorEmail,
        hourlyAutoSendLimit: input.hourlyAutoSendLimit,
        dailyAutoSendLimit: input.dailyAutoSendLimit,
        disablePollUntil,
        useNightmare: input.useNightmare,
        updatedAt: savedAt,
        updatedBy: actor.username,
      });
      await this.outbox.add(
        m,
        Topics.SystemSettingsSaved,
        SYSTEM_SETTINGS_KEY,
        systemSettingsSaved({ errorEmail, updatedAt: savedAt }),
      );
    });
    return this.get();
  }
}

export function toSettings(e: SystemSettingsEntity): SystemSettings {
  return {
    announcementService: e.announcementService,
    errorEmail: e.errorEmail,
    hourlyAutoSendLimit: e.hourlyAutoSendLimit,
    dailyAutoSendLimit: e.dailyAutoSendLimit,
    disablePollUntil: e.disablePollUntil ? e.disablePollUntil.toISOString() : null,
    useNightmare: e.useNightmare,
  };
}
