import { WidgetStock } from '@irp/proto';
import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  InternalServerErrorException,
  UseGuards,
} from '@nestjs/common';
import { ApiHeader, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../auth/decorators';
import { WidgetKeyGuard } from './widget-key.guard';

/** The stock an API key named, resolved once per request by WidgetKeyGuard. */
export interface WidgetContext {
  apiKey: string;
  stockId: string;
  stock: WidgetStock;
}

export interface WidgetRequest extends Request {
  widget?: WidgetContext;
}

/**
 * A public widget API controller: no sign-in, the API key resolved (and rate-limited, and its referer
 * recorded) before the handler runs. Later widget endpoints (announcements, market data...) put this on
 * their controller under `api/widget/...` and read the stock with @Widget().
 */
export const WidgetApi = () =>
  applyDecorators(
    Public(),
    UseGuards(WidgetKeyGuard),
    ApiTags('widget'),
    ApiHeader({ name: 'X-Api-Key', required: false, description: "The stock's API key (or ?apiKey=)" }),
  );

/** The `?apiKey=` query of a widget route, for OpenAPI. */
export const ApiKeyQuery = () =>
  ApiQuery({ name: 'apiKey', required: false, description: "The stock's API key (or the X-Api-Key header)" });

/** The resolved widget stock of the request. */
export const Widget = createParamDecorator((_: unknown, ctx: ExecutionContext): WidgetContext => {
  const widget = ctx.switchToHttp().getRequest<WidgetRequest>().widget;
  // Only reachable when a controller forgot @WidgetApi(): a programming error, never a client's.
  if (!widget) throw new InternalServerErrorException('Widget route without WidgetKeyGuard');
  return widget;
});
