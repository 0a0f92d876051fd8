import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { clientAddressOf, refuseOverLimit } from '../limits/public-limits';

type OrderLimitConfig = Pick<
  GatewayConfig,
  | 'ORDER_RATE_PER_ADDRESS'
  | 'ORDER_RATE_WINDOW_MS'
  | 'ADDRESS_LOOKUPS_PER_MINUTE'
  | 'ADDRESS_LOOKUP_BUDGET_PER_MINUTE'
  | 'ADDRESS_LOOKUP_BUDGET_PER_DAY'
  | 'ADDRESS_LOOKUPS_PER_SESSION'
>;

/** The one key of the address vendor's global budget: every client and gateway instance counts there. */
const EVERYONE = 'everyone';
/** An autocomplete session is over within minutes; its count is kept an hour. */
const SESSION_WINDOW_SECONDS = 3600;

/**
 * The public order form's limits, in the store every gateway instance shares: per client address, orders
 * (ORDER_RATE_PER_ADDRESS each ORDER_RATE_WINDOW_MS) and address suggestions (ADDRESS_LOOKUPS_PER_MINUTE),
 * a refusal being a 429 with Retry-After; and the address vendor's budget (`addressBudgetLeft`).
 */
@Injectable()
export class OrderLimits {
  private readonly orders: SharedLimiter;
  private readonly lookups: SharedLimiter;
  private readonly perSession: SharedLimiter;
  private readonly perMinute: SharedLimiter;
  private readonly perDay: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: OrderLimitConfig) {
    this.orders = store.limiter(
      'order-address',
      config.ORDER_RATE_PER_ADDRESS,
      Math.ceil(config.ORDER_RATE_WINDOW_MS / 1000),
    );
    this.lookups = store.limiter('address-lookup', config.ADDRESS_LOOKUPS_PER_MINUTE, 60);
    this.perSession = store.limiter(
      'address-session',
      config.ADDRESS_LOOKUPS_PER_SESSION,
      SESSION_WINDOW_SECONDS,
    );
    this.perMinute = store.limiter('address-budget-minute', config.ADDRESS_LOOKUP_BUDGET_PER_MINUTE, 60);
    this.perDay = store.limiter('address-budget-day', config.ADDRESS_LOOKUP_BUDGET_PER_DAY, 86_400);
  }

  async order(req: Request, res: Response): Promise<void> {
    await this.check(this.orders, req, res, (s) => `Too many orders: try again in ${s} seconds`);
  }

  async addressLookup(req: Request, res: Response): Promise<void> {
    await this.check(this.lookups, req, res, (s) => `Too many address lookups: try again in ${s} seconds`);
  }

  /**
   * Counts one call of the address vendor against its budget: this autocomplete session's cap
   * (ADDRESS_LOOKUPS_PER_SESSION; no token: one session per client address), then everyone's
   * ADDRESS_LOOKUP_BUDGET_PER_MINUTE and ADDRESS_LOOKUP_BUDGET_PER_DAY. False once any is spent: the
   * vendor is not asked. A lookup refused by one count is not counted by the next.
   */
  async addressBudgetLeft(sessionToken: string | undefined, req: Request): Promise<boolean> {
    const session = sessionToken ? `session:${sessionToken}` : `address:${clientAddressOf(req)}`;
    for (const [limiter, key] of [
      [this.perSession, session],
      [this.perMinute, EVERYONE],
      [this.perDay, EVERYONE],
    ] as const)
      if (!(await limiter.hit(key)).allowed) return false;
    return true;
  }

  private check(
    limiter: SharedLimiter,
    req: Request,
    res: Response,
    message: (seconds: number) => string,
  ): Promise<void> {
    return refuseOverLimit(limiter, `address:${clientAddressOf(req)}`, res, message);
  }
}
