import { CanActivate, ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { auditSecurityEvent } from '@irp/platform';
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

  /** The counts an attempt is held to: its address's, and its username's when it names one. */
  private countsOf(attempt: Attempt): Array<{ limiter: SharedLimiter; limit: number; key: string }> {
    return [
      {
        limiter: this.byAddress,
        limit: this.config.LOGIN_THROTTLE_ADDRESS_LIMIT,
        key: `address:${attempt.address}`,
      },
      ...(attempt.username
        ? [
            {
              limiter: this.byUsername,
              limit: this.config.LOGIN_THROTTLE_LIMIT,
              key: `user:${attempt.username}`,
            },
          ]
        : []),
    ];
  }

  /** The hold an attempt at count `used` (at or past `limit`) takes: the first delay, doubling after. */
  private holdSeconds(used: number, limit: number): number {
    const ms = Math.min(
      this.config.LOGIN_THROTTLE_FIRST_DELAY_MS * 2 ** Math.min(used - limit, 30),
      this.config.LOGIN_THROTTLE_MAX_DELAY_MS,
    );
    return Math.max(1, Math.ceil(ms / 1000));
  }

  /**
   * Lets an attempt check a password, or refuses it (429 with Retry-After). The attempt is counted as a
   * failure before its password is checked, each count one atomic statement (issue 34: a burst of
   * concurrent guesses once all passed a check made before any of them had failed): the attempts that take
   * a username or address to its limit and past it must also take the key's hold, which only one attempt per
   * hold can (the hold starts then, the first delay doubling with each attempt past the limit). What the
   * attempt turned out to be settles the counts: `failed` keeps them; `succeeded` clears the username's and
   * gives back the address's (good sign-ins never count); `abandoned` (the service did not answer) gives
   * both back.
   */
  async admit(attempt: Attempt, res: Response, message: string): Promise<AdmittedAttempt> {
    const counts = await Promise.all(
      this.countsOf(attempt).map(async (c) => ({ ...c, used: (await c.limiter.add(c.key)).used })),
    );
    let waitMs = 0;
    for (const c of counts) {
      if (c.used < c.limit) continue;
      const hold = await this.holds.add(c.key, 1, { seconds: this.holdSeconds(c.used, c.limit) });
      if (hold.used > 1) waitMs = Math.max(waitMs, hold.msBeforeNext, 1);
    }
    const giveBack = () => Promise.all(counts.map((c) => c.limiter.giveBack(c.key)));
    if (waitMs > 0) {
      await giveBack();
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      auditSecurityEvent('sign-in.held', { ...attempt, retryAfterSeconds, reason: message });
      res.setHeader('Retry-After', String(retryAfterSeconds));
      throw new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
    }
    return {
      failed: async () => undefined,
      succeeded: async () => {
        await Promise.all(
          counts.map(async (c) => {
            if (c.limiter !== this.byUsername) return c.limiter.giveBack(c.key);
            await Promise.all([c.limiter.forget(c.key), this.holds.forget(c.key)]);
          }),
        );
      },
      abandoned: async () => {
        await giveBack();
      },
    };
  }

  /**
   * A sign-in finished with its second factor (issue 34): its right password was counted as a failure until
   * now (LoginThrottle.admit, `failed`), so it settles as a success would: the username's failures and hold
   * cleared, the address's count given back.
   */
  async secondStepSucceeded(attempt: Attempt): Promise<void> {
    await Promise.all([
      this.byAddress.giveBack(`address:${attempt.address}`),
      ...(attempt.username
        ? [this.byUsername.forget(`user:${attempt.username}`), this.holds.forget(`user:${attempt.username}`)]
        : []),
    ]);
  }
}

/** Who an attempt counts against: its username (lower case) when it names one, and its client address. */
export interface Attempt {
  username?: string;
  address: string;
}

/** An attempt let through to its password check, to be settled once the answer is known. */
export interface AdmittedAttempt {
  failed(): Promise<void>;
  succeeded(): Promise<void>;
  abandoned(): Promise<void>;
}

/**
 * Takes a sign-in attempt's place in the counts before the route runs (429 with Retry-After while its
 * username or address is held, or past a limit another attempt is already using); the route settles it.
 */
@Injectable()
export class LoginThrottlerGuard implements CanActivate {
  constructor(private readonly throttle: LoginThrottle) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { loginAttempt?: AdmittedAttempt }>();
    req.loginAttempt = await this.throttle.admit(
      attemptOf(req),
      http.getResponse<Response>(),
      TOO_MANY_SIGN_INS,
    );
    return true;
  }
}
