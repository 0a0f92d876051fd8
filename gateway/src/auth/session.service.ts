import {
  CSRF_COOKIE,
  ErrorCode,
  REFRESH_COOKIE,
  SECOND_FACTOR_COOKIE,
  SESSION_COOKIE,
  SessionGrant,
  SessionUser,
  SessionUserDto,
  Topics,
} from '@irp/proto';
import { AppError, newSessionToken, tokenHash } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import { csrfTokenFor } from './csrf';

export interface AuthedRequest {
  user?: SessionUser;
  sessionToken?: string;
  /** The stock the guard resolved and checked a per-stock rule on (none for an admin: not checked). */
  checkedStockId?: string;
}

/** The path the second-factor ticket is sent to: the sign-in routes only. */
export const SIGN_IN_PATH = '/api/login';

/** The path the refresh cookie is sent to: only the refresh call ever carries it. */
export const REFRESH_PATH = '/api/admin/refreshtoken';

export function toSessionUserDto(user: SessionUser): SessionUserDto {
  return {
    username: user.username,
    user: { id: user.id, username: user.username },
    roles: Object.fromEntries(user.roles.map((r) => [r, true])),
    stockRoles: user.stockRoles,
    ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
    ...(user.mustAddSecondFactor ? { mustAddSecondFactor: true } : {}),
  };
}

/** A new session token and refresh token, made here: only their hashes ever leave the gateway. */
export interface NewTokens {
  session: string;
  refresh: string;
  hashes: { sessionHash: string; refreshHash: string };
}

/**
 * Cookie sessions: the users service owns sessions, by the hashes of their tokens; the gateway makes the
 * tokens (issue 34: no token crosses the bus), sets and clears the cookies, and keeps a short cache of
 * session lookups so a page's burst of calls costs one Kafka round trip.
 */
@Injectable()
export class SessionService {
  private readonly cache = new Map<string, { user: SessionUser; until: number }>();

  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  newTokens(): NewTokens {
    const session = newSessionToken();
    const refresh = newSessionToken();
    return { session, refresh, hashes: { sessionHash: tokenHash(session), refreshHash: tokenHash(refresh) } };
  }

  async userOf(sessionToken: string): Promise<SessionUser> {
    const key = tokenHash(sessionToken);
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.user;
    const user = await this.services.request(Topics.UsersSession, { sessionHash: key });
    if (this.config.SESSION_CACHE_MS > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, { user, until: Date.now() + this.config.SESSION_CACHE_MS });
    }
    return user;
  }

  forget(sessionToken: string | undefined): void {
    if (sessionToken) this.cache.delete(tokenHash(sessionToken));
  }

  tokensOf(req: Request): { session?: string; refresh?: string } {
    const cookies = (req.cookies ?? {}) as Record<string, string | undefined>;
    return { session: cookies[SESSION_COOKIE] || undefined, refresh: cookies[REFRESH_COOKIE] || undefined };
  }

  private base(): CookieOptions {
    return { httpOnly: true, sameSite: 'strict', secure: this.config.cookieSecure, path: '/' };
  }

  /** The cookies of this gateway's new tokens, ending when the users service's grant says. */
  setCookies(res: Response, tokens: NewTokens, grant: SessionGrant): void {
    const base = this.base();
    res.cookie(SESSION_COOKIE, tokens.session, { ...base, expires: new Date(grant.session.expiresAt) });
    res.cookie(REFRESH_COOKIE, tokens.refresh, {
      ...base,
      path: REFRESH_PATH,
      expires: new Date(grant.refresh.expiresAt),
    });
    this.setCsrfCookie(res, tokens.session, new Date(grant.refresh.expiresAt));
  }

  /** The CSRF cookie is readable by the web app (not httpOnly) so it can echo it in a header. */
  setCsrfCookie(res: Response, sessionToken: string, expires?: Date): void {
    res.cookie(CSRF_COOKIE, csrfTokenFor(this.config.SESSION_SECRET, sessionToken), {
      ...this.base(),
      httpOnly: false,
      expires,
    });
  }

  /**
   * The ticket between a right password and its second factor (issue 34): httpOnly, sent only to the sign-in
   * routes; the users service keeps its hash and ends it (SECOND_FACTOR_TICKET_SECONDS, or once used).
   */
  setTicketCookie(res: Response, ticket: string): void {
    res.cookie(SECOND_FACTOR_COOKIE, ticket, { ...this.base(), path: SIGN_IN_PATH });
  }

  ticketOf(req: Request): string | undefined {
    return ((req.cookies ?? {}) as Record<string, string | undefined>)[SECOND_FACTOR_COOKIE] || undefined;
  }

  clearTicketCookie(res: Response): void {
    res.clearCookie(SECOND_FACTOR_COOKIE, { ...this.base(), path: SIGN_IN_PATH });
  }

  clearCookies(res: Response): void {
    const base = this.base();
    res.clearCookie(SESSION_COOKIE, base);
    res.clearCookie(REFRESH_COOKIE, { ...base, path: REFRESH_PATH });
    res.clearCookie(CSRF_COOKIE, { ...base, httpOnly: false });
  }

  /** A session lookup that only an UNAUTHENTICATED answer turns into "signed out"; outages stay 503. */
  async tryUserOf(sessionToken: string | undefined): Promise<SessionUser | undefined> {
    if (!sessionToken) return undefined;
    try {
      return await this.userOf(sessionToken);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.Unauthenticated) return undefined;
      throw err;
    }
  }
}
