import { ErrorCode, Topics, routes } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Controller, Req, Res, UseGuards } from '@nestjs/common';
import { Route } from '../routing/route';
import { ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { auditSecurityEvent, newSessionToken, tokenHash } from '@irp/platform';
import { ServicesClient } from '../kafka/services.client';
import { BusSeal } from './bus-seal';
import { parseBasicAuth } from './basic-auth';
import { AdmittedAttempt, LoginThrottlerGuard } from './login-throttler.guard';
import { secondFactorNeeded } from './second-factor-sign-in.controller';
import { SessionService, toSessionUserDto } from './session.service';

const INVALID_LOGIN = 'Invalid username/password';

@Controller()
export class AuthController {
  constructor(
    private readonly services: ServicesClient,
    private readonly sessions: SessionService,
    private readonly seal: BusSeal,
  ) {}

  @Route(routes.users.login)
  @UseGuards(LoginThrottlerGuard)
  @ApiUnauthorizedResponse({ description: 'Invalid username/password' })
  @ApiTooManyRequestsResponse({ description: 'Too many sign-in attempts' })
  async login(
    @Req() req: Request & { loginAttempt?: AdmittedAttempt },
    @Res({ passthrough: true }) res: Response,
  ) {
    // Counted by the guard before anything is checked (LoginThrottle.admit); settled here.
    const attempt = req.loginAttempt!;
    const credentials = parseBasicAuth(req.header('authorization'));
    const address = req.ip;
    if (!credentials) {
      auditSecurityEvent('sign-in.failed', { address, reason: 'no username and password given' });
      await attempt.failed();
      throw new AppError(ErrorCode.Unauthenticated, INVALID_LOGIN);
    }
    const tokens = this.sessions.newTokens();
    // The ticket of a second step, if the user has a second factor (only its hash leaves the gateway).
    const ticket = newSessionToken();
    let grant;
    try {
      grant = await this.services.request(Topics.UsersAuthenticate, {
        username: credentials.username,
        password: this.seal.password(credentials.password),
        tokens: tokens.hashes,
        ticketHash: tokenHash(ticket),
        userAgent: req.header('user-agent')?.slice(0, 500),
        ip: req.ip?.slice(0, 100),
      });
    } catch (err) {
      // Only a refused password counts: a service that is down is not the client's failure.
      if (err instanceof AppError && err.code === ErrorCode.Unauthenticated) {
        auditSecurityEvent('sign-in.failed', {
          username: credentials.username.toLowerCase(),
          address,
          reason: err.message,
        });
        await attempt.failed();
      } else await attempt.abandoned();
      throw err;
    }
    if ('secondFactor' in grant) {
      // A right password is not yet a sign-in: the attempt stays counted until the second step succeeds, so
      // a stolen password gives a bounded number of tickets (each TICKET_FAILURES guesses).
      await attempt.failed();
      this.sessions.setTicketCookie(res, ticket);
      throw secondFactorNeeded(grant.secondFactor.methods);
    }
    auditSecurityEvent('sign-in.succeeded', {
      username: grant.user.username,
      userId: grant.user.id,
      address,
    });
    await attempt.succeeded();
    this.sessions.setCookies(res, tokens, grant);
    return toSessionUserDto(grant.user);
  }

  @Route(routes.users.logout)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { session, refresh } = this.sessions.tokensOf(req);
    this.sessions.forget(session);
    this.sessions.clearCookies(res);
    if (session || refresh) auditSecurityEvent('sign-out', { address: req.ip });
    if (session || refresh)
      await this.services.request(Topics.UsersLogout, {
        sessionHash: session ? tokenHash(session) : undefined,
        refreshHash: refresh ? tokenHash(refresh) : undefined,
      });
    return { success: true as const };
  }

  @Route(routes.users.refreshToken)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  async refreshToken(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { session, refresh } = this.sessions.tokensOf(req);
    const user = await this.sessions.tryUserOf(session);
    if (user && session) {
      this.sessions.setCsrfCookie(res, session);
      return toSessionUserDto(user);
    }
    let refused = 'Not signed in';
    if (refresh) {
      try {
        const tokens = this.sessions.newTokens();
        const grant = await this.services.request(Topics.UsersRefresh, {
          refreshHash: tokenHash(refresh),
          next: tokens.hashes,
          userAgent: req.header('user-agent')?.slice(0, 500),
          ip: req.ip?.slice(0, 100),
        });
        this.sessions.setCookies(res, tokens, grant);
        return toSessionUserDto(grant.user);
      } catch (err) {
        if (!(err instanceof AppError && err.code === ErrorCode.Unauthenticated)) throw err;
        // The users service says why (a reused refresh token, the session's maximum length reached).
        refused = err.message;
      }
    }
    this.sessions.clearCookies(res);
    throw new AppError(ErrorCode.Unauthenticated, refused);
  }
}
