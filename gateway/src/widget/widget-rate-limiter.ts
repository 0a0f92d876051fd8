import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ExpiringKeySet } from './expiring-key-set';
import { FixedWindowRateLimiter } from './rate-limiter';

type WindowConfig = Pick<GatewayConfig, 'WIDGET_RATE_LIMIT' | 'WIDGET_RATE_WINDOW_MS'>;

/** Keys (or client addresses) one limiter counts per window before refusing new ones with 429. */
export const WIDGET_RATE_MAX_KEYS = 100_000;
/** How long a key the stocks service did not know is answered 401 without asking it again. */
export const UNKNOWN_KEY_TTL_MS = 60_000;
/** Unknown keys remembered at once (per gateway instance). */
export const UNKNOWN_KEY_CACHE_SIZE = 10_000;
/** Lookups of keys the stocks service does not know, per client address and WIDGET_RATE_WINDOW_MS. */
export const UNKNOWN_KEY_LOOKUPS_PER_ADDRESS = 20;

/**
 * The widget API's per-key budget: WIDGET_RATE_LIMIT requests per WIDGET_RATE_WINDOW_MS, counted per
 * gateway instance (see FixedWindowRateLimiter). One instance shared by every widget route, so all of a
 * key's widget calls draw on the same budget.
 */
@Injectable()
export class WidgetRateLimiter extends FixedWindowRateLimiter {
  readonly windowSeconds: number;

  constructor(@Inject(GATEWAY_CONFIG) config: WindowConfig) {
    super(config.WIDGET_RATE_LIMIT, config.WIDGET_RATE_WINDOW_MS, WIDGET_RATE_MAX_KEYS);
    this.windowSeconds = Math.round(config.WIDGET_RATE_WINDOW_MS / 1000);
  }
}

/**
 * Keys the stocks service answered "unknown" in the last UNKNOWN_KEY_TTL_MS: repeated guesses of one
 * wrong key (or a site still calling with a deleted key) are answered 401 here. A key saved on a stock
 * within that minute after being refused is found once the entry expires.
 */
@Injectable()
export class WidgetUnknownKeys extends ExpiringKeySet {
  constructor() {
    super(UNKNOWN_KEY_TTL_MS, UNKNOWN_KEY_CACHE_SIZE);
  }
}

/**
 * Per client address: lookups that found no stock, UNKNOWN_KEY_LOOKUPS_PER_ADDRESS per window. Each
 * distinct guessed key would otherwise cost the stocks service a lookup and take a slot of the per-key
 * limiter; past the budget the address gets 429 until the window ends. Lookups that find a stock are
 * given back, so an address serving real widgets is never held to it.
 */
@Injectable()
export class WidgetUnknownKeyLimiter extends FixedWindowRateLimiter {
  constructor(@Inject(GATEWAY_CONFIG) config: WindowConfig) {
    super(UNKNOWN_KEY_LOOKUPS_PER_ADDRESS, config.WIDGET_RATE_WINDOW_MS, WIDGET_RATE_MAX_KEYS);
  }
}
