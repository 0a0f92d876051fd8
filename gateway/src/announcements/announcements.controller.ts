import {
  Announcement,
  AnnouncementBodySchema,
  AnnouncementChangeResponse,
  AnnouncementChangeResponseSchema,
  AnnouncementListSchema,
  CombinedTickerParamsSchema,
  SaveAnnouncementFormSchema,
  SendGuidParamsSchema,
  SendOverrideQuerySchema,
  SessionUser,
  StockRole,
  Topics,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UploadedFile } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Public, StockRoles } from '../auth/decorators';
import { Contract, FileResponseSchema } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';
import { openStoredPdf } from './pdf-download';
import { ReceivedFile, stageUpload } from './pdf-upload';

const changed = (announcement: Announcement): AnnouncementChangeResponse => ({
  success: true,
  announcement,
  errorMessage: null,
});

/** '' is how a form says "not given"; the service reads an absent field, not an empty one. */
const given = (text: string): string | undefined => (text.trim() ? text : undefined);

/**
 * The announcement routes of a stock (docs/api/announcements.md): the stock page's and the client stock
 * page's Announcements tab, and the public PDF. Roles per stock are the guard's (@StockRoles; Admin passes);
 * every rule (PDF for ASX, date format, resend confirmation...) is the announcements service's.
 */
@ApiTags('announcements')
@Controller('api/Announcement')
export class AnnouncementsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('list/:combinedTicker')
  @StockRoles([StockRole.EditAnnouncements, StockRole.SendMailchimp])
  @Contract({ params: CombinedTickerParamsSchema, response: AnnouncementListSchema })
  @ApiOperation({
    summary: "A stock's announcements, newest first (deleted ones included), with its latest initial poll",
  })
  list(@Param('combinedTicker') combinedTicker: string) {
    return this.services.request(Topics.AnnouncementsList, { combinedTicker, includeDeleted: true });
  }

  @Post('save/:combinedTicker')
  @HttpCode(200)
  @StockRoles([StockRole.EditAnnouncements])
  @Contract({
    params: CombinedTickerParamsSchema,
    body: SaveAnnouncementFormSchema,
    multipart: {
      file: 'file',
      maxBytes: 'ANNOUNCEMENT_MAX_PDF_BYTES',
      description: 'The announcement PDF (needed for a new ASX announcement)',
    },
    response: AnnouncementChangeResponseSchema,
  })
  @ApiOperation({
    summary: 'Add or edit an announcement (multipart: the PDF as `file` plus the text fields)',
    description:
      'An edit names the announcement by sendGuid, or by existingAnnouncementHeadline + existingAnnouncementDate.',
  })
  async save(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Body() form: z.output<typeof SaveAnnouncementFormSchema>,
    @UploadedFile() file: ReceivedFile | undefined,
  ) {
    const upload = file ? await stageUpload(this.services, file) : undefined;
    const { announcement } = await this.services.request(Topics.AnnouncementsSave, {
      actor,
      combinedTicker,
      sendGuid: form.sendGuid,
      existingAnnouncementHeadline: given(form.existingAnnouncementHeadline),
      existingAnnouncementDate: given(form.existingAnnouncementDate),
      headline: form.headline,
      date: form.date,
      priceSensitive: form.priceSensitive,
      remotePath: form.remotePath,
      videoUrl: form.videoUrl,
      videoDescription: form.videoDescription,
      thumbnailPageNum: form.thumbnailPageNum,
      upload,
    });
    return changed(announcement);
  }

  @Post('delete/:combinedTicker')
  @HttpCode(200)
  @StockRoles([StockRole.EditAnnouncements])
  @Contract({
    params: CombinedTickerParamsSchema,
    body: AnnouncementBodySchema,
    response: AnnouncementChangeResponseSchema,
  })
  @ApiOperation({ summary: 'Delete an announcement (kept, marked deleted; cannot be deleted twice)' })
  async delete(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Body() body: z.output<typeof AnnouncementBodySchema>,
  ) {
    const { announcement } = await this.services.request(Topics.AnnouncementsDelete, {
      actor,
      combinedTicker,
      sendGuid: body.sendGuid,
    });
    return changed(announcement);
  }

  @Post('send/:combinedTicker')
  @HttpCode(200)
  @StockRoles([StockRole.SendMailchimp])
  @Contract({
    params: CombinedTickerParamsSchema,
    query: SendOverrideQuerySchema,
    body: AnnouncementBodySchema,
    response: AnnouncementChangeResponseSchema,
  })
  @ApiOperation({
    summary: 'Send an announcement to subscribers; one already sent needs ?sendOverride (409 without it)',
  })
  async send(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Query() query: z.output<typeof SendOverrideQuerySchema>,
    @Body() body: z.output<typeof AnnouncementBodySchema>,
  ) {
    const { announcement } = await this.services.request(Topics.AnnouncementsSend, {
      actor,
      combinedTicker,
      sendGuid: body.sendGuid,
      override: query.sendOverride,
    });
    return changed(announcement);
  }

  /**
   * Public: announcements are public market disclosures, the guid is unguessable, and emails and client
   * websites' widgets link it. Read from the service in chunks (a PDF may not fit one Kafka message).
   */
  @Get('pdf/:sendGuid')
  @Public()
  @Contract({
    params: SendGuidParamsSchema,
    response: FileResponseSchema,
    produces: { mediaType: 'application/pdf', description: 'The stored PDF (inline)' },
  })
  @ApiOperation({ summary: 'The PDF of an announcement (public); 404 when there is none' })
  async pdf(@Param('sendGuid') sendGuid: string, @Res({ passthrough: true }) res: Response) {
    const file = await openStoredPdf(this.services, sendGuid);
    // Set here, not with @Header (which Nest also puts on errors): a 404 or 503 must not be cached.
    // Public and unchanging under one guid, but an edit may replace the file: minutes, not days.
    res.setHeader('Cache-Control', 'public, max-age=300');
    // Client websites link and embed it; helmet's same-origin default would block the embedding.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    return file;
  }
}
