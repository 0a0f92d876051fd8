import {
  ChangeOwnPasswordBodySchema,
  ErrorCode,
  CompanySearchQuerySchema,
  NEW_USER_ID,
  SaveUserBodySchema,
  SessionUser,
  Topics,
  UserDetailDto,
  WRONG_CURRENT_PASSWORD,
  routes,
} from '@irp/proto';
import { AppError, auditSecurityEvent, tokenHash } from '@irp/platform';
import { Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { LoginThrottle, TOO_MANY_WRONG_PASSWORDS } from '../auth/login-throttler.guard';
import { AuthedRequest, SessionService } from '../auth/session.service';
import { BusSeal } from '../auth/bus-seal';
import { ServicesClient } from '../kafka/services.client';
import { Route } from '../routing/route';

/** What the editor opens for /users/new: a user with nothing yet. */
const NEW_USER: UserDetailDto = { id: null, username: '', roles: [], permissions: [] };

/**
 * Spec section 7's Users calls (the list, the editor's read and save), the editor's company search and the
 * signed-in user's own password change, each asking the users service (docs/api/users.md).
 *
 * A change that ends a user's sessions reaches this gateway's session cache only when it expires
 * (SESSION_CACHE_MS, 5 s by default): the cache is keyed by token, and the gateway never learns the tokens
 * of the sessions the users service ended.
 */
@Controller()
export class UsersController {
  constructor(
    private readonly services: ServicesClient,
    private readonly throttle: LoginThrottle,
    private readonly seal: BusSeal,
    private readonly sessions: SessionService,
  ) {}

  @Route(routes.users.list)
  async list(@CurrentUser() actor: SessionUser) {
    return (await this.services.request(Topics.UsersList, { actor })).users;
  }

  @Route(routes.users.get)
  get(@CurrentUser() actor: SessionUser, @Param('id') id: string) {
    if (id === NEW_USER_ID) return NEW_USER;
    return this.services.request(Topics.UsersGet, { actor, id });
  }

  @Route(routes.users.save)
  async save(
    @CurrentUser() actor: SessionUser,
    @Param('id') id: string,
    @Body() body: z.output<typeof SaveUserBodySchema>,
  ) {
    const saved = await this.services.request(Topics.UsersSave, {
      actor,
      id: id === NEW_USER_ID ? null : id,
      username: body.username,
      permissions: body.permissions,
      password: body.password ? this.seal.password(body.password) : undefined,
      roles: body.roles,
    });
    return { success: true as const, errorMessage: null, id: saved.id };
  }

  @Route(routes.users.companies)
  async companies(@CurrentUser() actor: SessionUser, @Query() q: z.output<typeof CompanySearchQuerySchema>) {
    return (await this.services.request(Topics.UsersSearchCompanies, { actor, search: q.search })).companies;
  }

  /**
   * A wrong current password is a password guess: it counts as a failed sign-in of the username (and the
   * address), and a held username or address is refused (429) before the password is checked, so a stolen
   * session cannot guess its user's password here faster than at the sign-in.
   */
  @Route(routes.users.changeOwnPassword)
  async changeOwnPassword(
    @CurrentUser() actor: SessionUser,
    @Req() req: Request & AuthedRequest,
    @Res({ passthrough: true }) res: Response,
    @Body() body: z.output<typeof ChangeOwnPasswordBodySchema>,
  ) {
    const attempt = await this.throttle.admit(
      { username: actor.username.toLowerCase(), address: req.ip ?? 'unknown' },
      res,
      TOO_MANY_WRONG_PASSWORDS,
    );
    try {
      await this.services.request(Topics.UsersChangeOwnPassword, {
        actor,
        sessionHash: tokenHash(req.sessionToken ?? ''),
        currentPassword: this.seal.password(body.currentPassword),
        newPassword: this.seal.password(body.newPassword),
      });
    } catch (err) {
      const wrong =
        err instanceof AppError &&
        err.code === ErrorCode.BadRequest &&
        err.message === WRONG_CURRENT_PASSWORD;
      // A right current password with a new one the policy refuses is no guess: it gives its count back.
      if (wrong)
        auditSecurityEvent('password.change-refused', {
          username: actor.username,
          userId: actor.id,
          address: req.ip,
          reason: WRONG_CURRENT_PASSWORD,
        });
      await (wrong ? attempt.failed() : attempt.abandoned());
      throw err;
    }
    await attempt.succeeded();
    // The cached session user may still say the password is one-time: the next call reads it afresh.
    this.sessions.forget(req.sessionToken);
    return { success: true as const };
  }
}
