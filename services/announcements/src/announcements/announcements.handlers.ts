import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeleteAnnouncementService } from './delete-announcement.service';
import { ReadAnnouncementsService } from './read-announcements.service';
import { SaveAnnouncementService } from './save-announcement.service';
import { SendAnnouncementService } from './send-announcement.service';
import { WidgetService } from './widget.service';

/** Kafka entry points of stored announcements (api role); each use case is the service named after it. */
@Controller()
export class AnnouncementsHandlers {
  constructor(
    private readonly reads: ReadAnnouncementsService,
    private readonly saving: SaveAnnouncementService,
    private readonly deleting: DeleteAnnouncementService,
    private readonly sending: SendAnnouncementService,
    private readonly widget: WidgetService,
  ) {}

  @HandleRequest(Topics.AnnouncementsList)
  async list(@Payload() req: HandledRequest<typeof Topics.AnnouncementsList>) {
    return this.reads.list(req.actor, req.combinedTicker, req.includeDeleted, req.checkedStockId, {
      limit: req.limit,
      after: req.after,
    });
  }

  @HandleRequest(Topics.AnnouncementsHeadlines)
  async headlines(@Payload() req: HandledRequest<typeof Topics.AnnouncementsHeadlines>) {
    return this.reads.headlines(req.stockIds, req.since);
  }

  @HandleRequest(Topics.AnnouncementsUploadPart)
  async uploadPart(@Payload() req: HandledRequest<typeof Topics.AnnouncementsUploadPart>) {
    return { uploadId: req.uploadId, received: await this.saving.uploadPart(req) };
  }

  @HandleRequest(Topics.AnnouncementsSave)
  async save(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSave>) {
    return { announcement: await this.saving.save(req) };
  }

  @HandleRequest(Topics.AnnouncementsDelete)
  async delete(@Payload() req: HandledRequest<typeof Topics.AnnouncementsDelete>) {
    return { announcement: await this.deleting.delete(req) };
  }

  @HandleRequest(Topics.AnnouncementsSend)
  async send(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSend>) {
    return { announcement: await this.sending.send(req) };
  }

  @HandleRequest(Topics.AnnouncementsSendConfirmation)
  async sendConfirmation(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSendConfirmation>) {
    return this.sending.sendConfirmation(req);
  }

  @HandleRequest(Topics.AnnouncementsReadFile)
  async readFile(@Payload() req: HandledRequest<typeof Topics.AnnouncementsReadFile>) {
    return this.reads.readFile(req.sendGuid, req.offset, req.length);
  }

  @HandleRequest(Topics.AnnouncementsWidgetList)
  async widgetList(@Payload() req: HandledRequest<typeof Topics.AnnouncementsWidgetList>) {
    return { announcements: await this.widget.widgetList(req.stockId) };
  }

  @HandleRequest(Topics.AnnouncementsWidgetOpen)
  async widgetOpen(@Payload() req: HandledRequest<typeof Topics.AnnouncementsWidgetOpen>) {
    return { announcement: await this.widget.widgetOpen(req.stockId, req.sendGuid) };
  }
}
