import { CSRF_HEADER, ErrorCode, hasGlobalRole, hasStockRole, isAdmin } from '@irp/proto';
import { AppError } from '@irp/platform';
import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { csrfTokenValid, STATE_CHANGING } from './csrf';
import { PUBLIC_KEY, ROLES_KEY, STOCK_ROLES_KEY, StockRoleRequirement } from './decorators';
import { AuthedRequest, SessionService } from './session.service';
import { STOCK_DIRECTORY, StockDirectory } from './stock-directory';

/**
 * The one guard every route goes through (registered globally): signed in unless @Public, CSRF on
 * state-changing requests of a session, then @Roles and @StockRoles (proto's role predicates). The server enforces every rule,
 * whatever the web app shows or hides.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Optional() @Inject(STOCK_DIRECTORY) private readonly stocks?: StockDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request & AuthedRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const { session } = this.sessions.tokensOf(req);

    if (
      session &&
      STATE_CHANGING.has(req.method) &&
      !csrfTokenValid(this.config.SESSION_SECRET, session, req.header(CSRF_HEADER))
    ) {
      throw new AppError(ErrorCode.Forbidden, 'Missing or invalid CSRF token (X-XSRF-TOKEN header)');
    }
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const user = await this.sessions.tryUserOf(session);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Not signed in');
    req.user = user;
    req.sessionToken = session;

    const roles = this.reflector.getAllAndOverride<string[] | undefined>(ROLES_KEY, targets);
    if (roles?.length && !hasGlobalRole(user, roles)) {
      throw new AppError(ErrorCode.Forbidden, `This needs the ${roles.join(' or ')} role`);
    }

    const stockRule = this.reflector.getAllAndOverride<StockRoleRequirement | undefined>(
      STOCK_ROLES_KEY,
      targets,
    );
    if (stockRule && !isAdmin(user)) {
      const source = (
        stockRule.from === 'param' ? req.params : stockRule.from === 'query' ? req.query : req.body
      ) as Record<string, unknown> | undefined;
      const combinedTicker = source?.[stockRule.key];
      if (typeof combinedTicker !== 'string' || !combinedTicker.trim()) {
        throw new AppError(ErrorCode.BadRequest, `${stockRule.key} is required`);
      }
      if (stockRule.by === 'stockId') {
        // Stock roles are keyed by stock id: no lookup needed. A stock the user has no roles on is refused
        // alike whether or not it exists.
        if (!hasStockRole(user, combinedTicker.trim(), stockRule.roles)) {
          throw new AppError(
            ErrorCode.Forbidden,
            `You do not have the ${stockRule.roles.join(' or ')} permission on this stock`,
          );
        }
        return true;
      }
      if (!this.stocks)
        throw new AppError(
          ErrorCode.ServiceUnavailable,
          'Stock permissions cannot be checked: no stock directory',
        );
      const stockId = await this.stocks.stockIdOf(combinedTicker.trim());
      if (!stockId) throw new AppError(ErrorCode.NotFound, `Stock ${combinedTicker} not found`);
      if (!hasStockRole(user, stockId, stockRule.roles)) {
        throw new AppError(
          ErrorCode.Forbidden,
          `You do not have the ${stockRule.roles.join(' or ')} permission on ${combinedTicker}`,
        );
      }
    }
    return true;
  }
}
