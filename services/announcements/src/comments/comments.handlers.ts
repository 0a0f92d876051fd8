import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CommentsService } from './comments.service';

/** Kafka entry points of announcement comments (api role); the rules live in CommentsService. */
@Controller()
export class CommentsHandlers {
  constructor(private readonly comments: CommentsService) {}

  @HandleRequest(Topics.CommentsPost)
  async post(@Payload() req: HandledRequest<typeof Topics.CommentsPost>) {
    return this.comments.post(req);
  }

  @HandleRequest(Topics.CommentsWidgetList)
  async widgetList(@Payload() req: HandledRequest<typeof Topics.CommentsWidgetList>) {
    return this.comments.widgetList(req.stockId, req.sendGuid);
  }

  @HandleRequest(Topics.CommentsWidgetGroups)
  async widgetGroups(@Payload() req: HandledRequest<typeof Topics.CommentsWidgetGroups>) {
    return { commentGroups: await this.comments.widgetGroups(req.stockId) };
  }

  @HandleRequest(Topics.CommentsGroups)
  async groups(@Payload() req: HandledRequest<typeof Topics.CommentsGroups>) {
    return this.comments.groups(req.actor, req.combinedTicker, req.sendGuid, req.checkedStockId);
  }

  @HandleRequest(Topics.CommentsGet)
  async get(@Payload() req: HandledRequest<typeof Topics.CommentsGet>) {
    return this.comments.get(req.guid, req.checkedStockId);
  }

  @HandleRequest(Topics.CommentsRespond)
  async respond(@Payload() req: HandledRequest<typeof Topics.CommentsRespond>) {
    return this.comments.respond(req);
  }
}
