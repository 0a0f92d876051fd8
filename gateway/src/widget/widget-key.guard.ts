import { ErrorCode, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ServicesClient } from '../kafka/services.client';
import { widgetReferer } from './referer';
import type { WidgetRequest } from './widget-context';
import { WidgetRateLimiter } from './widget-rate-limiter';

export const API_KEY_HEADER = 'x-api-key';
export const API_KEY_REQUIRED = 'An API key is required: pass apiKey or the X-Api-Key header';
export const UNKNOWN_API_KEY = 'Unknown API key';
export const STOCK_ARCHIVED = 'This stock is archived';
const MAX_API_KEY_LENGTH = 100;

/** `?apiKey=` wins over the X-Api-Key header; blanks count as absent. */
export function apiKeyOf(req: Pick<WidgetRequest, 'query' | 'header'>): string | undefined {
  const fromQuery = req.query.apiKey;
  const query = typeof fromQuery === 'string' ? fromQuery.trim() : undefined;
  return query || req.header(API_KEY_HEADER)?.trim() || undefined;
}

/**
 * Resolves a widget request's API key once: rate limit per key (before any lookup, so a flood of
 * guesses costs the stocks service nothing), then `stocks.widget-lookup`, which finds the stock and
 * records the hit and the page's referer. Puts the stock on the request for the handler.
 */
@Injectable()
export class WidgetKeyGuard implements CanActivate {
  constructor(
    private readonly services: ServicesClient,
    private readonly limiter: WidgetRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<WidgetRequest>();
    const res = http.getResponse<Response>();
    const apiKey = apiKeyOf(req);
    if (!apiKey) throw new AppError(ErrorCode.Unauthenticated, API_KEY_REQUIRED);

    const rate = this.limiter.hit(apiKey);
    res.setHeader('X-RateLimit-Limit', String(rate.limit));
    res.setHeader('X-RateLimit-Remaining', String(rate.remaining));
    if (!rate.allowed) {
      res.setHeader('Retry-After', String(rate.retryAfterSeconds));
      throw new HttpException(
        `Too many requests for this API key: at most ${rate.limit} every ${this.limiter.windowSeconds} seconds. Please retry after ${rate.retryAfterSeconds} seconds.`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    if (apiKey.length > MAX_API_KEY_LENGTH) throw new AppError(ErrorCode.Unauthenticated, UNKNOWN_API_KEY);

    const found = await this.lookup(apiKey, widgetReferer(req.header('referer')));
    if (found.archived) throw new AppError(ErrorCode.NotFound, STOCK_ARCHIVED);
    req.widget = { apiKey, stockId: found.stockId, stock: found.stock };
    return true;
  }

  private async lookup(apiKey: string, referer: string | undefined) {
    try {
      return await this.services.request(Topics.StocksWidgetLookup, { apiKey, referer });
    } catch (err) {
      const unknownKey =
        err instanceof AppError &&
        (err.code === ErrorCode.NotFound || err.code === ErrorCode.Unauthenticated);
      throw unknownKey ? new AppError(ErrorCode.Unauthenticated, UNKNOWN_API_KEY) : err;
    }
  }
}
