import { randomUUID } from 'node:crypto';
import { Header } from '@irp/proto';
import { createLogger, httpRequests, withCorrelationId } from '@irp/platform';
import type { NextFunction, Request, Response } from 'express';
import { redactUrl } from './log-redaction';

/** The request log (exported for the test that reads it). */
export const requestLog = createLogger('http');

/**
 * Gives every HTTP request a correlation id (taken from `x-correlation-id` if the caller sent a sane one),
 * echoes it back, carries it into Kafka headers and logs, and logs + measures the request when it ends
 * (its URL without credentials: widget API keys, link tokens).
 */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header(Header.CorrelationId);
  const correlationId = incoming && /^[\w.:-]{1,100}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader(Header.CorrelationId, correlationId);
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route =
      (req.route as { path?: string } | undefined)?.path ??
      (req.path.startsWith('/api') ? 'unmatched' : 'static');
    httpRequests.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    withCorrelationId(correlationId, () =>
      requestLog.info(
        {
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
        },
        'request',
      ),
    );
  });
  withCorrelationId(correlationId, () => next());
}
