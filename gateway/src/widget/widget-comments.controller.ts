import {
  COMMENT_TEXTS,
  Topics,
  WidgetCommentBodySchema,
  WidgetCommentsQuerySchema,
  routes,
} from '@irp/proto';
import { Body, Controller, Inject, Injectable, Query, Req, Res } from '@nestjs/common';
import { Route } from '../routing/route';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import { SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { clientAddressOf, refuseOverLimit } from '../limits/public-limits';
import { Widget, WidgetContext } from './widget-context';

type CommentRateConfig = Pick<
  GatewayConfig,
  'COMMENT_RATE_PER_ADDRESS' | 'COMMENT_RATE_PER_KEY' | 'COMMENT_RATE_WINDOW_MS'
>;

/**
 * Comment posts through the widget: COMMENT_RATE_PER_ADDRESS per client address and COMMENT_RATE_PER_KEY
 * per API key each COMMENT_RATE_WINDOW_MS, counted in the store every gateway instance shares (so more
 * instances do not mean more spam), on top of the widget's own per-key budget. Only posts that passed
 * validation are counted, so a person correcting a form is not held back.
 */
@Injectable()
export class CommentPostLimiter {
  private readonly byAddress: SharedLimiter;
  private readonly byKey: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: CommentRateConfig) {
    const window = Math.ceil(config.COMMENT_RATE_WINDOW_MS / 1000);
    this.byAddress = store.limiter('comment-address', config.COMMENT_RATE_PER_ADDRESS, window);
    this.byKey = store.limiter('comment-key', config.COMMENT_RATE_PER_KEY, window);
  }

  /** Counts one post of this client address with this key; past either limit, 429 with Retry-After. */
  async check(req: Request, res: Response, apiKey: string): Promise<void> {
    const message = (seconds: number) => `Too many comments: try again in ${seconds} seconds`;
    await refuseOverLimit(this.byAddress, `address:${clientAddressOf(req)}`, res, message);
    await refuseOverLimit(this.byKey, `key:${apiKey}`, res, message);
  }
}

/**
 * Investors' comments on the API key's stock's announcements (public, CORS * like every widget route):
 * post a question (plain text; checked here and again by the service), list an announcement's public
 * comments with their responses, and the stock's comment groups for the interactive announcements widget.
 */
@Controller()
export class WidgetCommentsController {
  constructor(
    private readonly services: ServicesClient,
    private readonly limiter: CommentPostLimiter,
  ) {}

  @Route(routes.announcements.widgetPostComment)
  async post(
    @Widget() widget: WidgetContext,
    @Body() body: z.output<typeof WidgetCommentBodySchema>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.limiter.check(req, res, widget.apiKey);
    const { guid } = await this.services.request(Topics.CommentsPost, {
      stockId: widget.stockId,
      sendGuid: body.sendGuid,
      name: body.name,
      email: body.email,
      comment: body.comment,
    });
    return { success: true as const, guid, message: COMMENT_TEXTS.received };
  }

  @Route(routes.announcements.widgetComments)
  list(@Widget() widget: WidgetContext, @Query() query: z.output<typeof WidgetCommentsQuerySchema>) {
    return this.services.request(Topics.CommentsWidgetList, {
      stockId: widget.stockId,
      sendGuid: query.sendGuid,
    });
  }

  @Route(routes.announcements.widgetCommentGroups)
  groups(@Widget() widget: WidgetContext) {
    return this.services.request(Topics.CommentsWidgetGroups, { stockId: widget.stockId });
  }
}
