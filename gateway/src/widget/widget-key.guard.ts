import { ErrorCode, isWellFormedApiKey, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ServicesClient } from '../kafka/services.client';
import { widgetReferer } from './referer';
import type { WidgetRequest } from './widget-context';
import { WidgetRateLimiter, WidgetUnknownKeyLimiter, WidgetUnknownKeys } from './widget-rate-limiter';

export const API_KEY_HEADER = 'x-api-key';
export const API_KEY_REQUIRED = 'An API key is required: pass apiKey or the X-Api-Key header';
export const UNKNOWN_API_KEY = 'Unknown API key';
export const STOCK_ARCHIVED = 'This stock is archived';
export const SUBSCRIPTION_EXPIRED = 'The subscription of this stock has expired';
export const tooManyUnknownKeysMessage = (retryAfterSeconds: number) =>
  `Too many requests with unknown API keys from this address. Please retry after ${retryAfterSeconds} seconds.`;

/** `?apiKey=` wins over the X-Api-Key header; blanks count as absent. */
export function apiKeyOf(req: Pick<WidgetRequest, 'query' | 'header'>): string | undefined {
  const fromQuery = req.query.apiKey;
  const query = typeof fromQuery === 'string' ? fromQuery.trim() : undefined;
  return query || req.header(API_KEY_HEADER)?.trim() || undefined;
}

const unknownKey = () => new AppError(ErrorCode.Unauthenticated, UNKNOWN_API_KEY);
const tooMany = (res: Response, retryAfterSeconds: number, message: string) => {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  return new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
};

/**
 * Resolves a widget request's API key once, cheapest refusals first:
 * 1. a key of a form no key has (isWellFormedApiKey) is 401 at once, counted nowhere;
 * 2. a key the stocks service called unknown within the last minute is 401 from WidgetUnknownKeys;
 * 3. an address past its budget of unknown-key lookups is 429 (WidgetUnknownKeyLimiter);
 * 4. the per-key rate limit (429), counted in the store every gateway instance shares;
 * 5. `stocks.widget-lookup`, which finds the stock and records the hit and the page's referer; an
 *    archived stock's key or an expired subscription's is 404.
 * Every distinct well-formed guess still costs one lookup, but only WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS
 * of them per address and window, and a repeated one none. Puts the stock on the request for the handler.
 */
@Injectable()
export class WidgetKeyGuard implements CanActivate {
  constructor(
    private readonly services: ServicesClient,
    private readonly limiter: WidgetRateLimiter,
    private readonly unknownKeys: WidgetUnknownKeys,
    private readonly unknownKeyLimiter: WidgetUnknownKeyLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<WidgetRequest>();
    const res = http.getResponse<Response>();
    const apiKey = apiKeyOf(req);
    if (!apiKey) throw new AppError(ErrorCode.Unauthenticated, API_KEY_REQUIRED);
    if (!isWellFormedApiKey(apiKey) || this.unknownKeys.has(apiKey)) throw unknownKey();

    // One of the address's unknown-key lookups is taken before the lookup (concurrent guesses count
    // too) and given back unless the key turns out unknown.
    const address = req.ip ?? req.socket?.remoteAddress ?? 'unknown';
    const guess = await this.unknownKeyLimiter.hit(address);
    if (!guess.allowed)
      throw tooMany(res, guess.retryAfterSeconds, tooManyUnknownKeysMessage(guess.retryAfterSeconds));
    let unknown = false;
    try {
      const rate = await this.limiter.hit(apiKey);
      res.setHeader('X-RateLimit-Limit', String(rate.limit));
      res.setHeader('X-RateLimit-Remaining', String(rate.remaining));
      if (!rate.allowed)
        throw tooMany(
          res,
          rate.retryAfterSeconds,
          `Too many requests for this API key: at most ${rate.limit} every ${this.limiter.windowSeconds} seconds. Please retry after ${rate.retryAfterSeconds} seconds.`,
        );
      const found = await this.lookup(apiKey, widgetReferer(req.header('referer')));
      if (!found) {
        unknown = true;
        this.unknownKeys.add(apiKey);
        throw unknownKey();
      }
      // A stock that is archived or whose subscription expired serves no widget, as if it had none (404).
      if (found.archived) throw new AppError(ErrorCode.NotFound, STOCK_ARCHIVED);
      if (found.subscriptionExpired) throw new AppError(ErrorCode.NotFound, SUBSCRIPTION_EXPIRED);
      req.widget = { apiKey, stockId: found.stockId, stock: found.stock };
      return true;
    } finally {
      if (!unknown) await this.unknownKeyLimiter.giveBack(address);
    }
  }

  /** The stock of the key, or null when the stocks service knows no such key. */
  private async lookup(apiKey: string, referer: string | undefined) {
    try {
      return await this.services.request(Topics.StocksWidgetLookup, { apiKey, referer });
    } catch (err) {
      if (
        err instanceof AppError &&
        (err.code === ErrorCode.NotFound || err.code === ErrorCode.Unauthenticated)
      )
        return null;
      throw err;
    }
  }
}
