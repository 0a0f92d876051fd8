import { GlobalRole, StockRole } from '@irp/proto';
import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { AuthedRequest } from './session.service';

export const PUBLIC_KEY = 'irp:public';
export const ROLES_KEY = 'irp:roles';
export const STOCK_ROLES_KEY = 'irp:stock-roles';

/** No sign-in needed (login, public report, order form). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** Needs any one of these global roles; Admin always passes. */
export const Roles = (...roles: GlobalRole[]) => SetMetadata(ROLES_KEY, roles);

export interface StockRoleRequirement {
  roles: StockRole[];
  /** Where the combinedTicker (ticker:exchange) is read from. */
  from: 'param' | 'query' | 'body';
  key: string;
  /** What the value names the stock by: its combinedTicker (default) or its id (the email-marketing routes). */
  by?: 'combinedTicker' | 'stockId';
}

/** Needs any one of these roles on the stock named by the request's combinedTicker; Admin always passes. */
export const StockRoles = (
  roles: StockRole[],
  from: StockRoleRequirement['from'] = 'param',
  key = 'combinedTicker',
) => SetMetadata(STOCK_ROLES_KEY, { roles, from, key } satisfies StockRoleRequirement);

/** Needs any one of these roles on the stock whose id is at `key`; Admin always passes. */
export const StockRolesById = (roles: StockRole[], from: StockRoleRequirement['from'], key: string) =>
  SetMetadata(STOCK_ROLES_KEY, { roles, from, key, by: 'stockId' } satisfies StockRoleRequirement);

/** The signed-in user of the request. */
export const CurrentUser = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request & AuthedRequest>().user,
);
