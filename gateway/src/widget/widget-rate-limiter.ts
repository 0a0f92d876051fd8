import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { FixedWindowRateLimiter } from './rate-limiter';

/**
 * The widget API's per-key budget: WIDGET_RATE_LIMIT requests per WIDGET_RATE_WINDOW_MS, counted per
 * gateway instance (see FixedWindowRateLimiter). One instance shared by every widget route, so all of a
 * key's widget calls draw on the same budget.
 */
@Injectable()
export class WidgetRateLimiter extends FixedWindowRateLimiter {
  readonly windowSeconds: number;

  constructor(
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'WIDGET_RATE_LIMIT' | 'WIDGET_RATE_WINDOW_MS'>,
  ) {
    super(config.WIDGET_RATE_LIMIT, config.WIDGET_RATE_WINDOW_MS);
    this.windowSeconds = Math.round(config.WIDGET_RATE_WINDOW_MS / 1000);
  }
}
