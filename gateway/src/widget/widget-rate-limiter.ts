import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { LimitDecision, SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { ExpiringKeySet } from './expiring-key-set';

type WindowConfig = Pick<
  GatewayConfig,
  'WIDGET_RATE_LIMIT' | 'WIDGET_RATE_WINDOW_MS' | 'WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS'
>;

/** How long a key the stocks service did not know is answered 401 without asking it again. */
export const UNKNOWN_KEY_TTL_MS = 60_000;
/** Unknown keys remembered at once (per gateway instance). */
export const UNKNOWN_KEY_CACHE_SIZE = 10_000;

const windowSeconds = (config: WindowConfig) => Math.max(1, Math.round(config.WIDGET_RATE_WINDOW_MS / 1000));

/**
 * The widget API's per-key budget: WIDGET_RATE_LIMIT requests per WIDGET_RATE_WINDOW_MS, counted in the
 * store every gateway instance shares (N instances do not give a key N budgets). One instance shared by
 * every widget route, so all of a key's widget calls draw on the same budget. While that store is down each
 * instance counts on its own: a database outage does not take the clients' website widgets down.
 */
@Injectable()
export class WidgetRateLimiter {
  readonly windowSeconds: number;
  private readonly limiter: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: WindowConfig) {
    this.windowSeconds = windowSeconds(config);
    this.limiter = store.limiter('widget-key', config.WIDGET_RATE_LIMIT, this.windowSeconds, {
      whenStoreDown: 'count-here',
    });
  }

  hit(apiKey: string): Promise<LimitDecision> {
    return this.limiter.hit(`key:${apiKey}`);
  }
}

/**
 * Keys the stocks service answered "unknown" in the last UNKNOWN_KEY_TTL_MS: repeated guesses of one
 * wrong key (or a site still calling with a deleted key) are answered 401 here. A key saved on a stock
 * within that minute after being refused is found once the entry expires. A cache of answers, per instance.
 */
@Injectable()
export class WidgetUnknownKeys extends ExpiringKeySet {
  constructor() {
    super(UNKNOWN_KEY_TTL_MS, UNKNOWN_KEY_CACHE_SIZE);
  }
}

/**
 * Per client address: lookups that found no stock, WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS per window, in
 * the shared store. Each distinct guessed key would otherwise cost the stocks service a lookup; past the
 * budget the address gets 429 until the window ends. Lookups that find a stock are given back, so an
 * address serving real widgets is never held to it.
 */
@Injectable()
export class WidgetUnknownKeyLimiter {
  readonly limit: number;
  private readonly limiter: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: WindowConfig) {
    this.limit = config.WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS;
    this.limiter = store.limiter('widget-unknown-address', this.limit, windowSeconds(config), {
      whenStoreDown: 'count-here',
    });
  }

  hit(address: string): Promise<LimitDecision> {
    return this.limiter.hit(`address:${address}`);
  }

  /** Gives back the lookup counted for `address`: its key was found. */
  giveBack(address: string): Promise<void> {
    return this.limiter.giveBack(`address:${address}`);
  }
}
