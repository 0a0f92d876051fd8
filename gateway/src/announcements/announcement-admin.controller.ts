import {
  AnnouncementBodySchema,
  CombinedTickerParamsSchema,
  DiskReportQuerySchema,
  DiskReportSchema,
  FileCleanupSchema,
  GlobalRole,
  ResyncQuerySchema,
  ResyncResponseSchema,
  SendConfirmationResponseSchema,
  SessionUser,
  SystemSettingsBodySchema,
  SystemSettingsResponseSchema,
  SystemSettingsSavedSchema,
  Topics,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles } from '../auth/decorators';
import { Contract, NoBodySchema } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';

/**
 * Admin-only announcement routes: the confirmation email and resync of the stock page, and the System
 * settings screen's settings and tools (file cleanup, disk report). The announcements service owns them.
 */
@ApiTags('announcements')
@Controller('api/admin')
@Roles(GlobalRole.Admin)
export class AnnouncementAdminController {
  constructor(private readonly services: ServicesClient) {}

  @Post('sendConfirmationAnnouncementEmail/:combinedTicker')
  @HttpCode(200)
  @Contract({
    params: CombinedTickerParamsSchema,
    body: AnnouncementBodySchema,
    response: SendConfirmationResponseSchema,
  })
  @ApiOperation({ summary: "Send an announcement to the stock's confirmation emails" })
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

  @Post('resyncAnnouncements')
  @HttpCode(200)
  @Contract({ query: ResyncQuerySchema, body: NoBodySchema, response: ResyncResponseSchema })
  @ApiOperation({
    summary: "Start a stock's initial poll again (ticker = combinedTicker); the page shows Sync in Progress",
  })
  async resync(@CurrentUser() actor: SessionUser, @Query() query: z.output<typeof ResyncQuerySchema>) {
    const { initialPoll } = await this.services.request(Topics.AnnouncementsResync, {
      actor,
      combinedTicker: query.ticker,
    });
    return { success: true as const, initialPoll };
  }

  @Get('systemSettings')
  @Contract({ response: SystemSettingsResponseSchema })
  @ApiOperation({ summary: 'The system settings' })
  async systemSettings() {
    return (await this.services.request(Topics.AnnouncementsSystemSettings, {})).settings;
  }

  @Post('systemSettings')
  @HttpCode(200)
  @Contract({ body: SystemSettingsBodySchema, response: SystemSettingsSavedSchema })
  @ApiOperation({ summary: 'Save the system settings (every field)' })
  async saveSystemSettings(
    @CurrentUser() actor: SessionUser,
    @Body() settings: z.output<typeof SystemSettingsBodySchema>,
  ) {
    const saved = await this.services.request(Topics.AnnouncementsSaveSystemSettings, { actor, settings });
    return { success: true as const, settings: saved.settings, errorMessage: null };
  }

  @Get('fileCleanup')
  @Contract({ response: FileCleanupSchema })
  @ApiOperation({
    summary: 'Stored files missing on disk, duplicate files, and files on disk no announcement names',
  })
  fileCleanup() {
    return this.services.request(Topics.AnnouncementsFileCleanup, {});
  }

  @Get('diskReport')
  @Contract({ query: DiskReportQuerySchema, response: DiskReportSchema })
  @ApiOperation({
    summary: 'Disk space of the stored files per stock; ?includeBillable=true lists billable stocks too',
  })
  async diskReport(@Query() query: z.output<typeof DiskReportQuerySchema>) {
    return (
      await this.services.request(Topics.AnnouncementsDiskReport, { includeBillable: query.includeBillable })
    ).items;
  }
}
