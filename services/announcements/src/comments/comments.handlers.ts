import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CommentReads } from './comment-reads';
import { PostComment } from './post-comment';
import { RespondToComment } from './respond-to-comment';

/** Kafka entry points of announcement comments (api role); each calls its use case, the rules live in comment-rules.ts. */
@Controller()
export class CommentsHandlers {
  constructor(
    private readonly reads: CommentReads,
    private readonly posting: PostComment,
    private readonly responding: RespondToComment,
  ) {}

  @HandleRequest(Topics.CommentsPost)
  async post(@Payload() req: HandledRequest<typeof Topics.CommentsPost>) {
    return this.posting.post(req);
  }

  @HandleRequest(Topics.CommentsWidgetList)
  async widgetList(@Payload() req: HandledRequest<typeof Topics.CommentsWidgetList>) {
    return this.reads.widgetList(req.stockId, req.sendGuid);
  }

  @HandleRequest(Topics.CommentsWidgetGroups)
  async widgetGroups(@Payload() req: HandledRequest<typeof Topics.CommentsWidgetGroups>) {
    return { commentGroups: await this.reads.widgetGroups(req.stockId) };
  }

  @HandleRequest(Topics.CommentsGroups)
  async groups(@Payload() req: HandledRequest<typeof Topics.CommentsGroups>) {
    return this.reads.groups(req.actor, req.combinedTicker, req.sendGuid, req.checkedStockId);
  }

  @HandleRequest(Topics.CommentsGet)
  async get(@Payload() req: HandledRequest<typeof Topics.CommentsGet>) {
    return this.reads.get(req.guid, req.checkedStockId);
  }

  @HandleRequest(Topics.CommentsRespond)
  async respond(@Payload() req: HandledRequest<typeof Topics.CommentsRespond>) {
    return this.responding.respond(req);
  }
}
