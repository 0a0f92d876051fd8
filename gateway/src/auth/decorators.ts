import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AuthedRequest } from './session.service';

/** The signed-in user of the request. */
export const CurrentUser = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request & AuthedRequest>().user,
);

/**
 * The stock id the guard resolved for the route's per-stock rule, so a handler does not look it up again;
 * undefined for an admin, whom the guard passes without a lookup.
 */
export const CheckedStockId = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined =>
    ctx.switchToHttp().getRequest<Request & AuthedRequest>().checkedStockId,
);
