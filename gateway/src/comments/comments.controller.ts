import { AppError } from '@irp/platform';
import {
  AnnouncementCommentsQuerySchema,
  CommentGuidParamsSchema,
  CommentResponseBodySchema,
  CommentResponseSavedSchema,
  CommentResponseSchema,
  CommentsResultSchema,
  ErrorCode,
  hasStockRole,
  SessionUser,
  StockRole,
  Topics,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, StockRoles } from '../auth/decorators';
import { Contract } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';

/**
 * Moderating announcement comments (spec sections 2, 7; docs/api/announcements.md): the comment groups of a
 * ticker and one comment's response page. Admins, and client users holding ReplyToComment on the stock;
 * everyone else 403. A comment names its stock only through the service, so the response routes read the
 * comment first and then check the caller's role on its stock.
 */
@ApiTags('comments')
@Controller('api')
export class CommentsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('AnnouncementComments')
  @StockRoles([StockRole.ReplyToComment], 'query')
  @Contract({ query: AnnouncementCommentsQuerySchema, response: CommentsResultSchema })
  @ApiOperation({
    summary: "A ticker's comment groups (per announcement, newest first), or one announcement's",
  })
  groups(@Query() query: z.output<typeof AnnouncementCommentsQuerySchema>) {
    return this.services.request(Topics.CommentsGroups, {
      combinedTicker: query.combinedTicker,
      sendGuid: query.announcementGuid,
    });
  }

  @Get('AnnouncementCommentResponse/:guid')
  @Contract({ params: CommentGuidParamsSchema, response: CommentResponseSchema })
  @ApiOperation({ summary: 'One comment with its response, for the response page (ReplyToComment)' })
  async get(@Param() params: z.output<typeof CommentGuidParamsSchema>, @CurrentUser() user: SessionUser) {
    const { stockId, comment } = await this.services.request(Topics.CommentsGet, { guid: params.guid });
    requireReplyToComment(user, stockId);
    return comment;
  }

  @Post('AnnouncementCommentResponse/:guid')
  @HttpCode(200)
  @Contract({
    params: CommentGuidParamsSchema,
    body: CommentResponseBodySchema,
    response: CommentResponseSavedSchema,
  })
  @ApiOperation({
    summary:
      "Respond to a comment, publicly or not (ReplyToComment); a public response is mailed to the commenter in the stock's comment template",
  })
  async respond(
    @Param() params: z.output<typeof CommentGuidParamsSchema>,
    @Body() body: z.output<typeof CommentResponseBodySchema>,
    @CurrentUser() user: SessionUser,
  ) {
    if (body.guid !== params.guid)
      throw new AppError(ErrorCode.BadRequest, 'The body guid must be the comment of the path');
    // Refuse before changing anything: the service checks the role again inside its transaction.
    const { stockId } = await this.services.request(Topics.CommentsGet, { guid: params.guid });
    requireReplyToComment(user, stockId);
    const { comment } = await this.services.request(Topics.CommentsRespond, {
      actor: user,
      guid: params.guid,
      comment: body.comment,
      isPublic: body.isPublic,
    });
    return { success: true as const, errorMessage: null, comment };
  }
}

function requireReplyToComment(user: SessionUser, stockId: string) {
  if (!hasStockRole(user, stockId, StockRole.ReplyToComment))
    throw new AppError(
      ErrorCode.Forbidden,
      `You do not have the ${StockRole.ReplyToComment} permission on this comment's stock`,
    );
}
