import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { clientAddressOf, refuseOverLimit } from '../limits/public-limits';

type OrderLimitConfig = Pick<
  GatewayConfig,
  'ORDER_RATE_PER_ADDRESS' | 'ORDER_RATE_WINDOW_MS' | 'ADDRESS_LOOKUPS_PER_MINUTE'
>;

/**
 * The public order form's limits per client address, in the store every gateway instance shares: orders
 * (ORDER_RATE_PER_ADDRESS each ORDER_RATE_WINDOW_MS) and address suggestions (ADDRESS_LOOKUPS_PER_MINUTE).
 * A refusal is a 429 with Retry-After.
 */
@Injectable()
export class OrderLimits {
  private readonly orders: SharedLimiter;
  private readonly lookups: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: OrderLimitConfig) {
    this.orders = store.limiter(
      'order-address',
      config.ORDER_RATE_PER_ADDRESS,
      Math.ceil(config.ORDER_RATE_WINDOW_MS / 1000),
    );
    this.lookups = store.limiter('address-lookup', config.ADDRESS_LOOKUPS_PER_MINUTE, 60);
  }

  async order(req: Request, res: Response): Promise<void> {
    await this.check(this.orders, req, res, (s) => `Too many orders: try again in ${s} seconds`);
  }

  async addressLookup(req: Request, res: Response): Promise<void> {
    await this.check(this.lookups, req, res, (s) => `Too many address lookups: try again in ${s} seconds`);
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
