import { Topics, WidgetAnnouncementQuerySchema, routes } from '@irp/proto';
import { Controller, Query } from '@nestjs/common';
import { Route } from '../routing/route';
import type { z } from 'zod';
import { ServicesClient } from '../kafka/services.client';
import { Widget, WidgetContext } from './widget-context';

/**
 * The announcements a client website's widget shows: its stock's (by the API key's stock, never a
 * ticker the page names), not deleted, and opening one, which counts a view.
 */
@Controller()
export class WidgetAnnouncementsController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.announcements.widgetAnnouncements)
  list(@Widget() widget: WidgetContext) {
    return this.services.request(Topics.AnnouncementsWidgetList, { stockId: widget.stockId });
  }

  @Route(routes.announcements.widgetAnnouncement)
  open(@Widget() widget: WidgetContext, @Query() query: z.output<typeof WidgetAnnouncementQuerySchema>) {
    return this.services.request(Topics.AnnouncementsWidgetOpen, {
      stockId: widget.stockId,
      sendGuid: query.sendGuid,
    });
  }
}
