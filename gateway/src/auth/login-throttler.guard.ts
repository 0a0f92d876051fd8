import { CanActivate, ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { parseBasicAuth } from './basic-auth';

export const TOO_MANY_SIGN_INS = 'Too many failed sign-in attempts. Please wait a while and try again.';
export const TOO_MANY_WRONG_PASSWORDS = 'Too many wrong passwords. Please wait a while and try again.';
type ThrottleConfig = Pick<
  GatewayConfig,
  | 'LOGIN_THROTTLE_LIMIT'
  | 'LOGIN_THROTTLE_ADDRESS_LIMIT'
  | 'LOGIN_THROTTLE_TTL_MS'
  | 'LOGIN_THROTTLE_FIRST_DELAY_MS'
  | 'LOGIN_THROTTLE_MAX_DELAY_MS'
>;

/** Who a sign-in attempt counts against: its username (lower case, as the users service matches it) and address. */
export function attemptOf(req: Request): { username?: string; address: string } {
  const username = parseBasicAuth(req.header('authorization'))?.username.toLowerCase();
  return { username: username || undefined, address: req.ip ?? req.socket?.remoteAddress ?? 'unknown' };
}

/**
 * Failed sign-ins, counted per username and per client address separately, in the store every gateway
 * instance shares. Past a limit within LOGIN_THROTTLE_TTL_MS the username (or address) is held for
 * LOGIN_THROTTLE_FIRST_DELAY_MS (1 s), and each further failure doubles the hold (up to
 * LOGIN_THROTTLE_MAX_DELAY_MS), so guessing slows to a crawl
 * while a person who mistyped waits seconds. Successful sign-ins count nowhere (an office behind one address
 * signs in all day) and clear the username's failures; the address's stay, so an attacker holding one
 * account cannot wipe the count of their guesses at others.
 */
@Injectable()
export class LoginThrottle {
  private readonly byUsername: SharedLimiter;
  private readonly byAddress: SharedLimiter;
  private readonly holds: SharedLimiter;

  constructor(
    store: SharedLimitStore,
    @Inject(GATEWAY_CONFIG) private readonly config: ThrottleConfig,
  ) {
    const window = Math.ceil(config.LOGIN_THROTTLE_TTL_MS / 1000);
    this.byUsername = store.limiter('login-fail-user', config.LOGIN_THROTTLE_LIMIT, window);
    this.byAddress = store.limiter('login-fail-address', config.LOGIN_THROTTLE_ADDRESS_LIMIT, window);
    this.holds = store.limiter('login-hold', 1, window);
  }

  private keys({ username, address }: { username?: string; address: string }): string[] {
    return [`address:${address}`, ...(username ? [`user:${username}`] : [])];
  }

  /** Ms the attempt must still wait (0: it may try). */
  async waitFor(attempt: { username?: string; address: string }): Promise<number> {
    const holds = await Promise.all(this.keys(attempt).map((k) => this.holds.blockedFor(k)));
    return Math.max(0, ...holds);
  }

  async failed(attempt: { username?: string; address: string }): Promise<void> {
    const counts: Array<[SharedLimiter, number, string]> = [
      [this.byAddress, this.config.LOGIN_THROTTLE_ADDRESS_LIMIT, `address:${attempt.address}`],
      ...(attempt.username
        ? [
            [this.byUsername, this.config.LOGIN_THROTTLE_LIMIT, `user:${attempt.username}`] as [
              SharedLimiter,
              number,
              string,
            ],
          ]
        : []),
    ];
    await Promise.all(
      counts.map(async ([limiter, limit, key]) => {
        const { used } = await limiter.add(key);
        if (used < limit) return;
        const ms = Math.min(
          this.config.LOGIN_THROTTLE_FIRST_DELAY_MS * 2 ** Math.min(used - limit, 30),
          this.config.LOGIN_THROTTLE_MAX_DELAY_MS,
        );
        await this.holds.block(key, ms / 1000);
      }),
    );
  }

  async succeeded(attempt: { username?: string; address: string }): Promise<void> {
    if (attempt.username) await this.byUsername.forget(`user:${attempt.username}`);
  }
}

/** Refuses a sign-in attempt while its username or address is held (429 with Retry-After). */
@Injectable()
export class LoginThrottlerGuard implements CanActivate {
  constructor(private readonly throttle: LoginThrottle) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await refuseWhileHeld(
      this.throttle,
      attemptOf(http.getRequest<Request>()),
      http.getResponse<Response>(),
      TOO_MANY_SIGN_INS,
    );
    return true;
  }
}

/**
 * Throws 429 with Retry-After while the attempt's username or address is held: before a sign-in, and before
 * any other check of a password (the own password change), so that guessing meets one count however it asks.
 */
export async function refuseWhileHeld(
  throttle: LoginThrottle,
  attempt: { username?: string; address: string },
  res: Response,
  message: string,
): Promise<void> {
  const ms = await throttle.waitFor(attempt);
  if (ms <= 0) return;
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))));
  throw new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
}
