import {
  AnnouncementBodySchema,
  DiskReportQuerySchema,
  ResyncQuerySchema,
  SessionUser,
  SystemSettingsBodySchema,
  Topics,
  routes,
} from '@irp/proto';
import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { Route } from '../routing/route';
import { CurrentUser } from '../auth/decorators';
import type { z } from 'zod';
import { ServicesClient } from '../kafka/services.client';

/**
 * Admin-only announcement routes: the confirmation email and resync of the stock page, and the System
 * settings screen's settings and tools (file cleanup, disk report). The announcements service owns them.
 */
@Controller()
export class AnnouncementAdminController {
  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'ADMIN_REPORT_TIMEOUT_MS'>,
  ) {}

  @Route(routes.announcements.sendConfirmation)
  async sendConfirmation(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Body() body: z.output<typeof AnnouncementBodySchema>,
  ) {
    const { recipients } = await this.services.request(Topics.AnnouncementsSendConfirmation, {
      actor,
      combinedTicker,
      sendGuid: body.sendGuid,
    });
    return { success: true as const, recipients, errorMessage: null };
  }

  @Route(routes.announcements.resync)
  async resync(@CurrentUser() actor: SessionUser, @Query() query: z.output<typeof ResyncQuerySchema>) {
    const { initialPoll } = await this.services.request(Topics.AnnouncementsResync, {
      actor,
      combinedTicker: query.ticker,
    });
    return { success: true as const, initialPoll };
  }

  @Route(routes.announcements.systemSettings)
  async systemSettings() {
    return (await this.services.request(Topics.AnnouncementsSystemSettings, {})).settings;
  }

  @Route(routes.announcements.saveSystemSettings)
  async saveSystemSettings(
    @CurrentUser() actor: SessionUser,
    @Body() settings: z.output<typeof SystemSettingsBodySchema>,
  ) {
    const saved = await this.services.request(Topics.AnnouncementsSaveSystemSettings, { actor, settings });
    return { success: true as const, settings: saved.settings, errorMessage: null };
  }

  @Route(routes.announcements.fileCleanup)
  fileCleanup() {
    return this.services.request(Topics.AnnouncementsFileCleanup, {}, this.config.ADMIN_REPORT_TIMEOUT_MS);
  }

  @Route(routes.announcements.diskReport)
  async diskReport(@Query() query: z.output<typeof DiskReportQuerySchema>) {
    return (
      await this.services.request(
        Topics.AnnouncementsDiskReport,
        { includeBillable: query.includeBillable },
        this.config.ADMIN_REPORT_TIMEOUT_MS,
      )
    ).items;
  }
}
