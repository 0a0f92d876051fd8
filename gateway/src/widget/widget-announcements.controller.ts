import {
  Topics,
  WidgetAnnouncementListSchema,
  WidgetAnnouncementQuerySchema,
  WidgetAnnouncementReplySchema,
} from '@irp/proto';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { z } from 'zod';
import { Contract } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';
import { ApiKeyQuery, Widget, WidgetApi, WidgetContext } from './widget-context';

/**
 * The announcements a client website's widget shows: its stock's (by the API key's stock, never a
 * ticker the page names), not deleted, and opening one, which counts a view.
 */
@WidgetApi()
@Controller('api/widget')
export class WidgetAnnouncementsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('announcements')
  @ApiKeyQuery()
  @Contract({ response: WidgetAnnouncementListSchema })
  @ApiOperation({ summary: "The API key's stock's announcements, newest first (public, CORS *)" })
  list(@Widget() widget: WidgetContext) {
    return this.services.request(Topics.AnnouncementsWidgetList, { stockId: widget.stockId });
  }

  @Get('announcement')
  @ApiKeyQuery()
  @Contract({ query: WidgetAnnouncementQuerySchema, response: WidgetAnnouncementReplySchema })
  @ApiOperation({
    summary:
      "Open one of the API key's stock's announcements by sendGuid: counts a view (hits); 404 otherwise",
  })
  open(@Widget() widget: WidgetContext, @Query() query: z.output<typeof WidgetAnnouncementQuerySchema>) {
    return this.services.request(Topics.AnnouncementsWidgetOpen, {
      stockId: widget.stockId,
      sendGuid: query.sendGuid,
    });
  }
}
