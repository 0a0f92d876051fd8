import { AppError } from '@irp/platform';
import {
  AnnouncementCommentsQuerySchema,
  CommentGuidParamsSchema,
  CommentResponseBodySchema,
  ErrorCode,
  routes,
  SessionUser,
  Topics,
} from '@irp/proto';
import { Body, Controller, Param, Query } from '@nestjs/common';
import { Route } from '../routing/route';
import type { z } from 'zod';
import { CheckedStockId, CurrentUser } from '../auth/decorators';
import { ServicesClient } from '../kafka/services.client';

/**
 * Moderating announcement comments (spec sections 2, 7; docs/api/announcements.md): the comment groups of a
 * ticker and one comment's response page. Admins, and client users holding ReplyToComment on the stock;
 * everyone else 403. A comment names its stock only through the service: the response routes' entries name
 * the stock by the comment's guid, which the guard resolves before the handler runs.
 */
@Controller()
export class CommentsController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.announcements.comments)
  groups(
    @Query() query: z.output<typeof AnnouncementCommentsQuerySchema>,
    @CurrentUser() actor: SessionUser,
    @CheckedStockId() checkedStockId: string | undefined,
  ) {
    // The service reads only the stock whose role the guard checked (its ticker lookup is cached).
    return this.services.request(Topics.CommentsGroups, {
      actor,
      combinedTicker: query.combinedTicker,
      sendGuid: query.announcementGuid,
      checkedStockId,
    });
  }

  @Route(routes.announcements.commentResponse)
  async get(
    @Param() params: z.output<typeof CommentGuidParamsSchema>,
    @CheckedStockId() checkedStockId: string | undefined,
  ) {
    const { comment } = await this.services.request(Topics.CommentsGet, {
      guid: params.guid,
      checkedStockId,
    });
    return comment;
  }

  @Route(routes.announcements.respondToComment)
  async respond(
    @Param() params: z.output<typeof CommentGuidParamsSchema>,
    @Body() body: z.output<typeof CommentResponseBodySchema>,
    @CurrentUser() user: SessionUser,
  ) {
    if (body.guid !== params.guid)
      throw new AppError(ErrorCode.BadRequest, 'The body guid must be the comment of the path');
    // The guard checked the role on the comment's stock; the service checks it again in its transaction.
    const { comment } = await this.services.request(Topics.CommentsRespond, {
      actor: user,
      guid: params.guid,
      comment: body.comment,
      isPublic: body.isPublic,
    });
    return { success: true as const, errorMessage: null, comment };
  }
}
