import {
  ErrorCode,
  PasskeyResponseBodySchema,
  routes,
  SECOND_FACTOR_EXPIRED,
  SECOND_FACTOR_NEEDED,
  SecondFactorCodeBodySchema,
  SecondFactorMethod,
  Topics,
} from '@irp/proto';
import { AppError, auditSecurityEvent, tokenHash } from '@irp/platform';
import { Body, Controller, HttpException, HttpStatus, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { ServicesClient } from '../kafka/services.client';
import { Route } from '../routing/route';
import { BusSeal } from './bus-seal';
import { LoginThrottle } from './login-throttler.guard';
import { SessionService, toSessionUserDto } from './session.service';

/** GET /api/login's 401 when the password was right and a second factor is to come (with the methods). */
export function secondFactorNeeded(methods: SecondFactorMethod[]): HttpException {
  return new HttpException(
    { message: SECOND_FACTOR_NEEDED, extra: { secondFactor: { methods } } },
    HttpStatus.UNAUTHORIZED,
  );
}

/**
 * The second step of a sign-in (issue 34), after GET /api/login answered 401 with `secondFactor` and set the
 * ticket cookie: a passkey assertion (options first) or an authenticator or recovery code. Success sets the
 * session cookies as GET /api/login does and clears the ticket; the users service limits wrong tries per
 * ticket, and the sign-in throttle counted the password until now.
 */
@Controller()
export class SecondFactorSignInController {
  constructor(
    private readonly services: ServicesClient,
    private readonly sessions: SessionService,
    private readonly seal: BusSeal,
    private readonly throttle: LoginThrottle,
  ) {}

  private ticketHashOf(req: Request): string {
    const ticket = this.sessions.ticketOf(req);
    if (!ticket) throw new AppError(ErrorCode.Unauthenticated, SECOND_FACTOR_EXPIRED);
    return tokenHash(ticket);
  }

  @Route(routes.users.signInPasskeyOptions)
  signInPasskeyOptions(@Req() req: Request) {
    return this.services.request(Topics.UsersSignInPasskeyOptions, { ticketHash: this.ticketHashOf(req) });
  }

  @Route(routes.users.signInPasskey)
  signInPasskey(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: z.output<typeof PasskeyResponseBodySchema>,
  ) {
    return this.finish(req, res, { passkey: body.response });
  }

  @Route(routes.users.signInCode)
  signInCode(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: z.output<typeof SecondFactorCodeBodySchema>,
  ) {
    return this.finish(req, res, { code: this.seal.secondFactorCode(body.code) });
  }

  private async finish(
    req: Request,
    res: Response,
    factor: { passkey?: Record<string, unknown>; code?: string },
  ) {
    const ticketHash = this.ticketHashOf(req);
    const tokens = this.sessions.newTokens();
    let grant;
    try {
      grant = await this.services.request(Topics.UsersSecondFactor, {
        ticketHash,
        tokens: tokens.hashes,
        ...factor,
        userAgent: req.header('user-agent')?.slice(0, 500),
        ip: req.ip?.slice(0, 100),
      });
    } catch (err) {
      if (
        err instanceof AppError &&
        err.code === ErrorCode.Unauthenticated &&
        err.message === SECOND_FACTOR_EXPIRED
      )
        this.sessions.clearTicketCookie(res);
      throw err;
    }
    const address = req.ip ?? 'unknown';
    auditSecurityEvent('sign-in.succeeded', {
      username: grant.user.username,
      userId: grant.user.id,
      address,
    });
    await this.throttle.secondStepSucceeded({ username: grant.user.username.toLowerCase(), address });
    this.sessions.clearTicketCookie(res);
    this.sessions.setCookies(res, tokens, grant);
    return toSessionUserDto(grant.user);
  }
}
