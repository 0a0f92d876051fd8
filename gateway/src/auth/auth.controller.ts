import { ErrorCode, SessionUserDtoSchema, SuccessSchema, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Controller, Delete, Get, HttpCode, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiCookieAuth,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Contract } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';
import { parseBasicAuth } from './basic-auth';
import { Public } from './decorators';
import { LoginThrottlerGuard } from './login-throttler.guard';
import { REFRESH_PATH, SessionService, toSessionUserDto } from './session.service';

const INVALID_LOGIN = 'Invalid username/password';

@ApiTags('auth')
@Controller('api')
export class AuthController {
  constructor(
    private readonly services: ServicesClient,
    private readonly sessions: SessionService,
  ) {}

  @Get('login')
  @Public()
  @UseGuards(LoginThrottlerGuard)
  @ApiBasicAuth()
  @Contract({ response: SessionUserDtoSchema })
  @ApiOperation({ summary: 'Sign in with Basic auth; sets the session, refresh and CSRF cookies' })
  @ApiUnauthorizedResponse({ description: 'Invalid username/password' })
  @ApiTooManyRequestsResponse({ description: 'Too many sign-in attempts' })
  async login(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const credentials = parseBasicAuth(req.header('authorization'));
    if (!credentials) throw new AppError(ErrorCode.Unauthenticated, INVALID_LOGIN);
    const grant = await this.services.request(Topics.UsersAuthenticate, {
      ...credentials,
      userAgent: req.header('user-agent')?.slice(0, 500),
      ip: req.ip?.slice(0, 100),
    });
    this.sessions.setCookies(res, grant);
    return toSessionUserDto(grant.user);
  }

  @Delete('login')
  @Public()
  @HttpCode(200)
  @Contract({ response: SuccessSchema })
  @ApiOperation({ summary: 'Sign out: revokes the session and clears the cookies' })
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { session, refresh } = this.sessions.tokensOf(req);
    this.sessions.forget(session);
    this.sessions.clearCookies(res);
    if (session || refresh)
      await this.services.request(Topics.UsersLogout, { sessionToken: session, refreshToken: refresh });
    return { success: true as const };
  }

  @Get(REFRESH_PATH.replace(/^\/api\//, ''))
  @Public()
  @ApiCookieAuth()
  @Contract({ response: SessionUserDtoSchema })
  @ApiOperation({ summary: 'The session user; renews an expired session from the refresh cookie' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  async refreshToken(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { session, refresh } = this.sessions.tokensOf(req);
    const user = await this.sessions.tryUserOf(session);
    if (user && session) {
      this.sessions.setCsrfCookie(res, session);
      return toSessionUserDto(user);
    }
    if (refresh) {
      try {
        const grant = await this.services.request(Topics.UsersRefresh, {
          refreshToken: refresh,
          userAgent: req.header('user-agent')?.slice(0, 500),
          ip: req.ip?.slice(0, 100),
        });
        this.sessions.setCookies(res, grant);
        return toSessionUserDto(grant.user);
      } catch (err) {
        if (!(err instanceof AppError && err.code === ErrorCode.Unauthenticated)) throw err;
      }
    }
    this.sessions.clearCookies(res);
    throw new AppError(ErrorCode.Unauthenticated, 'Not signed in');
  }
}
