import {
  ANNOUNCEMENT_PAGE_MAX,
  ANNOUNCEMENT_PAGE_SIZE,
  AnnouncementBodySchema,
  AnnouncementListQuerySchema,
  AnnouncementChangeResponse,
  AnnouncementList,
  SaveAnnouncementFormSchema,
  SendOverrideQuerySchema,
  SessionUser,
  STOCK_LIST_UNAVAILABLE_HEADER,
  StoredAnnouncement,
  Topics,
  routes,
} from '@irp/proto';
import { Body, Controller, Param, Query, Req, Res, UploadedFile } from '@nestjs/common';
import { Route } from '../routing/route';
import type { Request, Response } from 'express';
import { CheckedStockId, CurrentUser } from '../auth/decorators';
import type { z } from 'zod';
import { ServicesClient } from '../kafka/services.client';
import { AnnouncementDeliveries } from './announcement-deliveries';
import { openStoredPdf } from './pdf-download';
import { PublicPdfLimits } from './public-pdf-limits';
import { ReceivedFile, stageUpload } from './pdf-upload';

/** '' is how a form says "not given"; the service reads an absent field, not an empty one. */
const given = (text: string): string | undefined => (text.trim() ? text : undefined);

/**
 * The announcement routes of a stock (docs/api/announcements.md): the stock page's and the client stock
 * page's Announcements tab, and the public PDF. Roles per stock are the guard's (each route entry's access;
 * Admin passes); every rule (PDF for ASX, date format, resend confirmation...) is the announcements
 * service's. Every announcement answered carries who was mailed it, composed from the email-marketing
 * service (AnnouncementDeliveries, ADR 0013); when that service does not answer, the response header
 * STOCK_LIST_UNAVAILABLE_HEADER names it.
 */
@Controller()
export class AnnouncementsController {
  constructor(
    private readonly services: ServicesClient,
    private readonly deliveries: AnnouncementDeliveries,
    private readonly pdfLimits: PublicPdfLimits,
  ) {}

  /**
   * The newest ANNOUNCEMENT_PAGE_SIZE; with `after` (a previous page's `next`) the ANNOUNCEMENT_PAGE_MAX older
   * ones after it.
   */
  @Route(routes.announcements.list)
  async list(
    @Param('combinedTicker') combinedTicker: string,
    @Query() query: z.output<typeof AnnouncementListQuerySchema>,
    @CurrentUser() actor: SessionUser,
    @CheckedStockId() checkedStockId: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnnouncementList> {
    // The service reads only the stock whose role the guard checked (its ticker lookup is cached).
    const { announcements, initialPoll, next } = await this.services.request(Topics.AnnouncementsList, {
      actor,
      combinedTicker,
      includeDeleted: true,
      checkedStockId,
      // The newest page small, for the first paint; the older ones, loaded behind it, in fewer requests.
      limit: query.after ? ANNOUNCEMENT_PAGE_MAX : ANNOUNCEMENT_PAGE_SIZE,
      after: query.after,
    });
    const composed = await this.deliveries.of(announcements);
    res.setHeader(STOCK_LIST_UNAVAILABLE_HEADER, composed.unavailable.join(', '));
    return { announcements: composed.announcements, initialPoll, next };
  }

  @Route(routes.announcements.save)
  async save(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Body() form: z.output<typeof SaveAnnouncementFormSchema>,
    @UploadedFile() file: ReceivedFile | undefined,
    @Res({ passthrough: true }) res: Response,
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
    return this.changed(announcement, res);
  }

  @Route(routes.announcements.delete)
  async delete(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Body() body: z.output<typeof AnnouncementBodySchema>,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { announcement } = await this.services.request(Topics.AnnouncementsDelete, {
      actor,
      combinedTicker,
      sendGuid: body.sendGuid,
    });
    return this.changed(announcement, res);
  }

  @Route(routes.announcements.send)
  async send(
    @CurrentUser() actor: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
    @Query() query: z.output<typeof SendOverrideQuerySchema>,
    @Body() body: z.output<typeof AnnouncementBodySchema>,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { announcement } = await this.services.request(Topics.AnnouncementsSend, {
      actor,
      combinedTicker,
      sendGuid: body.sendGuid,
      override: query.sendOverride,
    });
    return this.changed(announcement, res);
  }

  /**
   * Public: announcements are public market disclosures, the guid is unguessable, and emails and client
   * websites' widgets link it. Read from the service in chunks (a PDF may not fit one Kafka message).
   */
  @Route(routes.announcements.pdf)
  async pdf(
    @Param('sendGuid') sendGuid: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    // Counted per client address before the service is asked (PUBLIC_PDF_RATE_PER_ADDRESS).
    await this.pdfLimits.download(req, res);
    const file = await openStoredPdf(this.services, sendGuid);
    // Set here, not with @Header (which Nest also puts on errors): a 404 or 503 must not be cached.
    // Public and unchanging under one guid, but an edit may replace the file: minutes, not days.
    res.setHeader('Cache-Control', 'public, max-age=300');
    // Client websites link and embed it; helmet's same-origin default would block the embedding.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    return file;
  }

  /** Save, delete, send: the announcement as stored, with who was mailed it. */
  private async changed(stored: StoredAnnouncement, res: Response): Promise<AnnouncementChangeResponse> {
    const { announcement, unavailable } = await this.deliveries.one(stored);
    res.setHeader(STOCK_LIST_UNAVAILABLE_HEADER, unavailable.join(', '));
    return { success: true, announcement, errorMessage: null };
  }
}
