import { AppError } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import type { Request, Response } from 'express';
import { SharedLimiter } from './limit-store';

/** The client address a public limit counts by (behind the configured proxies: trust-proxy.ts). */
export const clientAddressOf = (req: Request): string => req.ip ?? req.socket?.remoteAddress ?? 'unknown';

/**
 * Counts one hit of `key` on a limiter of the store every gateway instance shares; past the limit, a 429
 * with Retry-After and `message(seconds)`.
 */
export async function refuseOverLimit(
  limiter: SharedLimiter,
  key: string,
  res: Response,
  message: (seconds: number) => string,
): Promise<void> {
  const decision = await limiter.hit(key);
  if (decision.allowed) return;
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  throw new AppError(ErrorCode.TooManyRequests, message(decision.retryAfterSeconds));
}
