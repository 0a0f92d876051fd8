import { WidgetStock } from '@irp/proto';
import { createParamDecorator, ExecutionContext, InternalServerErrorException } from '@nestjs/common';
import type { Request } from 'express';

/** The stock an API key named, resolved once per request by WidgetKeyGuard. */
export interface WidgetContext {
  apiKey: string;
  stockId: string;
  stock: WidgetStock;
}

export interface WidgetRequest extends Request {
  widget?: WidgetContext;
}

/** The resolved widget stock of the request. */
export const Widget = createParamDecorator((_: unknown, ctx: ExecutionContext): WidgetContext => {
  const widget = ctx.switchToHttp().getRequest<WidgetRequest>().widget;
  // Only reachable when a handler's route entry is not a widget route: a programming error, never a client's.
  if (!widget)
    throw new InternalServerErrorException('Widget parameter on a route whose access is not widget');
  return widget;
});
