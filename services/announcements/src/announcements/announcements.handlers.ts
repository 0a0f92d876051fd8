import { HandleEvent, HandleRequest, HandledRequest } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AnnouncementsService } from './announcements.service';

/** Kafka entry points of stored announcements (api role); the rules live in AnnouncementsService. */
@Controller()
export class AnnouncementsHandlers {
  constructor(private readonly announcements: AnnouncementsService) {}

  @HandleRequest(Topics.AnnouncementsList)
  async list(@Payload() req: HandledRequest<typeof Topics.AnnouncementsList>) {
    return this.announcements.list(req.combinedTicker, req.includeDeleted);
  }

  @HandleRequest(Topics.AnnouncementsUploadPart)
  async uploadPart(@Payload() req: HandledRequest<typeof Topics.AnnouncementsUploadPart>) {
    return { uploadId: req.uploadId, received: await this.announcements.uploadPart(req) };
  }

  @HandleRequest(Topics.AnnouncementsSave)
  async save(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSave>) {
    return { announcement: await this.announcements.save(req) };
  }

  @HandleRequest(Topics.AnnouncementsDelete)
  async delete(@Payload() req: HandledRequest<typeof Topics.AnnouncementsDelete>) {
    return { announcement: await this.announcements.delete(req) };
  }

  @HandleRequest(Topics.AnnouncementsSend)
  async send(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSend>) {
    return { announcement: await this.announcements.send(req) };
  }

  @HandleRequest(Topics.AnnouncementsSendConfirmation)
  async sendConfirmation(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSendConfirmation>) {
    return this.announcements.sendConfirmation(req);
  }

  @HandleRequest(Topics.AnnouncementsReadFile)
  async readFile(@Payload() req: HandledRequest<typeof Topics.AnnouncementsReadFile>) {
    return this.announcements.readFile(req.sendGuid, req.offset, req.length);
  }

  @HandleRequest(Topics.AnnouncementsWidgetList)
  async widgetList(@Payload() req: HandledRequest<typeof Topics.AnnouncementsWidgetList>) {
    return { announcements: await this.announcements.widgetList(req.stockId) };
  }

  @HandleRequest(Topics.AnnouncementsWidgetOpen)
  async widgetOpen(@Payload() req: HandledRequest<typeof Topics.AnnouncementsWidgetOpen>) {
    return { announcement: await this.announcements.widgetOpen(req.stockId, req.sendGuid) };
  }

  /** Published by the email-marketing service once mail for an announcement is accepted. */
  @HandleEvent(Topics.AnnouncementDelivered)
  async sent(@Payload() event: EventOf<typeof Topics.AnnouncementDelivered>) {
    await this.announcements.markSent(event);
  }
}
