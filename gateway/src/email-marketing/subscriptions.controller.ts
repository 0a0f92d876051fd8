import { AppError } from '@irp/platform';
import {
  SUBSCRIBER_PAGE_MAX,
  SUBSCRIBER_PAGE_SIZE,
  ErrorCode,
  SubscribersQuerySchema,
  PreferencesBodySchema,
  Topics,
  WidgetSubscribeBodySchema,
  routes,
  TokenParamsSchema,
} from '@irp/proto';
import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { Route } from '../routing/route';
import type { z } from 'zod';
import type { Request } from 'express';
import { ServicesClient } from '../kafka/services.client';
import { Widget, WidgetContext } from '../widget/widget-context';

/** An investor subscribes on the company's IR site (double opt-in: a confirmation mail is sent). */
@Controller()
export class WidgetSubscribeController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.emailMarketing.widgetSubscribe)
  async subscribe(
    @Widget() widget: WidgetContext,
    @Body() body: z.output<typeof WidgetSubscribeBodySchema>,
    @Req() req: Request,
  ) {
    const reply = await this.services.request(Topics.EmailMarketingSubscribe, {
      stockId: widget.stockId,
      email: body.email,
      ...(body.preference ? { preference: body.preference } : {}),
      ip: req.ip ?? req.socket?.remoteAddress ?? 'unknown',
      userAgent: req.header('user-agent') ?? '',
    });
    return { success: true as const, ...reply };
  }
}

/**
 * The links in subscribers' mails, no sign-in: confirm (single-use), unsubscribe — the page reads who a link
 * is for, then one POST unsubscribes (also the RFC 8058 one-click target of List-Unsubscribe) — and the
 * preference page (what to be mailed, a pause).
 */
@Controller()
export class SubscriptionController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.emailMarketing.confirm)
  async confirm(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingConfirmSubscription, params)),
    };
  }

  @Route(routes.emailMarketing.subscription)
  async subscription(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingSubscription, params)),
    };
  }

  @Route(routes.emailMarketing.unsubscribe)
  async unsubscribe(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingUnsubscribe, params)),
    };
  }

  /** The preference page: what the subscriber chose, as the unsubscribe link answers it. */
  @Route(routes.emailMarketing.preferences)
  async preferences(@Param() params: z.output<typeof TokenParamsSchema>) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingSubscription, params)),
    };
  }

  @Route(routes.emailMarketing.savePreferences)
  async savePreferences(
    @Param() params: z.output<typeof TokenParamsSchema>,
    @Body() body: z.output<typeof PreferencesBodySchema>,
  ) {
    return {
      success: true as const,
      ...(await this.services.request(Topics.EmailMarketingSavePreferences, { ...params, ...body })),
    };
  }
}

/**
 * A stock's subscribers with their status, newest first, a page at a time (SUBSCRIBER_PAGE_SIZE, then
 * SUBSCRIBER_PAGE_MAX after `after`), and its counts, for staff.
 */
@Controller()
export class SubscribersController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.emailMarketing.subscribers)
  async list(@Query() query: z.output<typeof SubscribersQuerySchema>) {
    const { id } = await this.services.request(Topics.StocksResolve, {
      combinedTicker: query.combinedTicker,
    });
    if (!id) throw new AppError(ErrorCode.NotFound, `Stock ${query.combinedTicker} not found`);
    // The newest page small, for the first paint; the older ones, loaded behind it, in fewer requests.
    return this.services.request(Topics.EmailMarketingSubscribers, {
      stockId: id,
      limit: query.after ? SUBSCRIBER_PAGE_MAX : SUBSCRIBER_PAGE_SIZE,
      after: query.after,
    });
  }
}
