import {
  CSRF_HEADER,
  ErrorCode,
  hasGlobalRole,
  hasStockRole,
  isAdmin,
  PASSWORD_CHANGE_REQUIRED,
  SECOND_FACTOR_REQUIRED,
  RouteEntry,
  routes,
  SessionUser,
  StockRef,
} from '@irp/proto';
import { AppError } from '@irp/platform';
import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { malformedText } from '../common/well-formed-text';
import { ROUTE_KEY } from '../routing/route';
import { notFoundMessage, STOCK_RESOLVER, StockResolver } from '../routing/stock-resolver';
import { WidgetKeyGuard } from '../widget/widget-key.guard';
import { csrfTokenValid, STATE_CHANGING } from './csrf';
import { AuthedRequest, SessionService } from './session.service';

const isOwnPasswordChange = (entry: RouteEntry) =>
  entry.method === routes.users.changeOwnPassword.method &&
  entry.path === routes.users.changeOwnPassword.path;

/** What a session whose roles need a second factor may do before it has one: set one up, or its password. */
const SECOND_FACTOR_SET_UP = new Set<RouteEntry>([
  routes.users.accountSecurity,
  routes.users.passkeyOptions,
  routes.users.addPasskey,
  routes.users.beginTotp,
  routes.users.confirmTotp,
  routes.users.changeOwnPassword,
]);

/** The refusal of a handler that has no route entry: denied, whatever it is (deny by default). */
export const NO_ROUTE_ENTRY = 'This handler has no entry in the route table';

/**
 * The one guard every route goes through (registered globally). It applies the access rule of the
 * handler's route table entry (@Route) and refuses a handler without one. In order: CSRF on
 * state-changing requests of a session; `public` passes; `widget` resolves the API key (WidgetKeyGuard);
 * `signedIn` needs a session, then any of the entry's global roles, or any of its stock roles on the stock
 * the request names (Admin passes both). The server enforces every rule, whatever the web app shows.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Optional() @Inject(STOCK_RESOLVER) private readonly stocks?: StockResolver,
    @Optional() private readonly widget?: WidgetKeyGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request & AuthedRequest>();
    const entry = this.reflector.get<RouteEntry | undefined>(ROUTE_KEY, context.getHandler());
    if (!entry) throw new AppError(ErrorCode.Forbidden, NO_ROUTE_ENTRY);
    const { session } = this.sessions.tokensOf(req);

    if (
      session &&
      STATE_CHANGING.has(req.method) &&
      !csrfTokenValid(this.config.SESSION_SECRET, session, req.header(CSRF_HEADER))
    ) {
      throw new AppError(ErrorCode.Forbidden, 'Missing or invalid CSRF token (X-XSRF-TOKEN header)');
    }
    const rule = entry.access;
    if (rule.kind === 'public') return true;
    if (rule.kind === 'widget') {
      if (!this.widget) throw new AppError(ErrorCode.ServiceUnavailable, 'The widget API is not set up');
      return this.widget.canActivate(context);
    }

    const user = await this.sessions.tryUserOf(session);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Not signed in');
    req.user = user;
    req.sessionToken = session;
    // A password someone else set is one-time: until the user chose their own, the session does nothing else.
    if (user.mustChangePassword && !isOwnPasswordChange(entry))
      throw new AppError(ErrorCode.Forbidden, PASSWORD_CHANGE_REQUIRED);
    // Roles that need a second factor: until one is set up, the session does nothing else (issue 34).
    if (user.mustAddSecondFactor && !SECOND_FACTOR_SET_UP.has(entry))
      throw new AppError(ErrorCode.Forbidden, SECOND_FACTOR_REQUIRED);

    const { globalRoles = [], stock } = rule;
    if (!globalRoles.length && !stock) return true;
    if (isAdmin(user) || (globalRoles.length && hasGlobalRole(user, globalRoles))) return true;
    if (!stock) throw new AppError(ErrorCode.Forbidden, `This needs the ${globalRoles.join(' or ')} role`);
    req.checkedStockId = await this.checkStockRoles(req, user, stock.roles, stock.ref);
    return true;
  }

  private async checkStockRoles(
    req: Request,
    user: SessionUser,
    roles: readonly string[],
    ref: StockRef,
  ): Promise<string> {
    const source = (ref.from === 'param' ? req.params : ref.from === 'query' ? req.query : req.body) as
      Record<string, unknown> | undefined;
    const raw = source?.[ref.key];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (!value && ref.otherwise) return this.checkStockRoles(req, user, roles, ref.otherwise);
    if (!value) throw new AppError(ErrorCode.BadRequest, ref.missingMessage ?? `${ref.key} is required`);
    // Before the lookup: a NUL reaching the stocks service's query was its 500.
    const malformed = malformedText(value, ref.key);
    if (malformed) throw new AppError(ErrorCode.BadRequest, malformed);
    const by = ref.by ?? 'combinedTicker';
    // Stock roles are keyed by stock id: a stock the user has no roles on is refused alike whether or not
    // it exists.
    const stockId = by === 'stockId' ? value : await this.resolve(by, value);
    if (!hasStockRole(user, stockId, roles)) {
      const on =
        by === 'combinedTicker' ? value : by === 'commentGuid' ? "this comment's stock" : 'this stock';
      throw new AppError(
        ErrorCode.Forbidden,
        `You do not have the ${roles.join(' or ')} permission on ${on}`,
      );
    }
    return stockId;
  }

  private async resolve(by: Exclude<StockRef['by'], 'stockId' | undefined>, value: string): Promise<string> {
    if (!this.stocks)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'Stock permissions cannot be checked: no stock resolver',
      );
    const stockId = await this.stocks.stockIdOf(by, value);
    if (!stockId) throw new AppError(ErrorCode.NotFound, notFoundMessage(by, value));
    return stockId;
  }
}
