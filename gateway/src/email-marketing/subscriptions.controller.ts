import { AppError } from '@irp/platform';
import {
  ErrorCode,
  GlobalRole,
  SubscribersQuerySchema,
  SubscribersResponseSchema,
  SubscriptionResponseSchema,
  Topics,
  WidgetSubscribeBodySchema,
  WidgetSubscribeResponseSchema,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { z } from 'zod';
import { Public, Roles } from '../auth/decorators';
import { Contract, NoBodySchema } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';
import { ApiKeyQuery, Widget, WidgetApi, WidgetContext } from '../widget/widget-context';

const TokenParamsSchema = z.object({ token: z.string().min(16).max(200) });
/** RFC 8058's one-click POST sends a form body `List-Unsubscribe=One-Click`; a plain POST sends nothing. */
const OneClickBodySchema = z.object({ 'List-Unsubscribe': z.string().max(50).optional() }).passthrough();

/** An investor subscribes on the company's IR site (double opt-in: a confirmation mail is sent). */
@WidgetApi()
@Controller('api/widget')
export class WidgetSubscribeController {
  constructor(private readonly services: ServicesClient) {}

  @Post('subscribe')
  @HttpCode(200)
  @ApiKeyQuery()
  @Contract({ body: WidgetSubscribeBodySchema, response: WidgetSubscribeResponseSchema })
  @ApiOperation({
    summary:
      "Subscribe an address to the API key's stock's announcements: a confirmation mail is sent (public, CORS *); 400 bad address, 429 too many attempts",
  })
  async subscribe(
    @Widget() widget: WidgetContext,
    @Body() body: z.output<typeof WidgetSubscribeBodySchema>,
    @Req() req: Request,
  ) {
    const reply = await this.services.request(Topics.EmailMarketingSubscribe, {
      stockId: widget.stockId,
      email: body.email,
      ip: req.ip ?? req.socket?.remoteAddress ?? 'unknown',
      userAgent: req.header('user-agent') ?? '',
    });
    return { success: true as const, ...reply };
  }
}

/**
 * The links in subscribers' mails, no sign-in: confirm (single-use), and unsubscribe — the page reads who
 * a link is for, then one POST unsubscribes (also the RFC 8058 one-click target of List-Unsubscribe).
 */
@ApiTags('email-marketing')
@Public()
@Controller('api/subscription')
export class SubscriptionController {
  constructor(private readonly services: ServicesClient) {}

  @Post('confirm/:token')
  @HttpCode(200)
  @Contract({ params: TokenParamsSchema, body: NoBodySchema, response: SubscriptionResponseSchema })
  @ApiOperation({ summary: 'Confirm a subscription (the link of the confirmation mail; works once)' })
  async confirm(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingConfirmSubscription, params)),
    };
  }

  @Get('unsubscribe/:token')
  @Contract({ params: TokenParamsSchema, response: SubscriptionResponseSchema })
  @ApiOperation({ summary: 'Who an unsubscribe link is for (changes nothing)' })
  async subscription(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingSubscription, params)),
    };
  }

  @Post('unsubscribe/:token')
  @HttpCode(200)
  @Contract({ params: TokenParamsSchema, body: OneClickBodySchema, response: SubscriptionResponseSchema })
  @ApiOperation({ summary: 'Unsubscribe (one click, RFC 8058; idempotent)' })
  async unsubscribe(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingUnsubscribe, params)),
    };
  }
}

/** A stock's subscribers with their status and counts, for staff. */
@ApiTags('email-marketing')
@Controller('api/admin')
@Roles(GlobalRole.Admin)
export class SubscribersController {
  constructor(private readonly services: ServicesClient) {}

  @Get('subscribers')
  @Contract({ query: SubscribersQuerySchema, response: SubscribersResponseSchema })
  @ApiOperation({ summary: "A stock's subscribers (combinedTicker), newest first, with counts by status" })
  async list(@Query() query: z.output<typeof SubscribersQuerySchema>) {
    const { id } = await this.services.request(Topics.StocksResolve, {
      combinedTicker: query.combinedTicker,
    });
    if (!id) throw new AppError(ErrorCode.NotFound, `Stock ${query.combinedTicker} not found`);
    return this.services.request(Topics.EmailMarketingSubscribers, { stockId: id });
  }
}
