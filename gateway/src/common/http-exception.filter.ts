import { ApiErrorDto, HTTP_STATUS_OF } from '@irp/proto';
import { AppError, createLogger } from '@irp/platform';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { bodyParserRefusal } from './body-limits';

const log = createLogger('http');

function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object' && 'message' in body) {
    const m = (body as { message: unknown }).message;
    if (Array.isArray(m)) return m.join('; ');
    if (typeof m === 'string') return m;
  }
  return fallback;
}

/** The one error body: what any exception becomes at the edge of the gateway. */
export function errorBodyOf(exception: unknown): ApiErrorDto {
  let status: number = HttpStatus.INTERNAL_SERVER_ERROR;
  let message = 'Internal server error';
  const refused = bodyParserRefusal(exception);
  if (refused) {
    ({ status, message } = refused);
  } else if (exception instanceof AppError) {
    // A service's or the gateway's own answer (503 for a service that is down included): not a fault here.
    status = HTTP_STATUS_OF[exception.code] ?? 500;
    message = exception.message;
  } else if (exception instanceof HttpException) {
    status = exception.getStatus();
    message = messageOf(exception.getResponse(), exception.message);
    if (status >= 500) log.error({ err: exception }, 'request failed');
  } else {
    // Once, with the stack: the client only sees 'Internal server error'.
    log.error({ err: exception }, 'unhandled error');
  }
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, errorMessage: message };
}

/**
 * An HttpException whose response has `extra` (an object): its fields go beside the one error body, e.g.
 * GET /api/login's `secondFactor` (issue 34).
 */
function extraOf(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof HttpException)) return {};
  const response = exception.getResponse();
  const extra = typeof response === 'object' ? (response as { extra?: unknown }).extra : undefined;
  return extra && typeof extra === 'object' ? (extra as Record<string, unknown>) : {};
}

/** Every error leaves the gateway as `{ statusCode, error, message, errorMessage }`. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  /** Fields some routes add to the one error body (see SaveErrorFilter). */
  protected extraFields(): Record<string, unknown> {
    return {};
  }

  catch(exception: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    const body = errorBodyOf(exception);
    if (!res.headersSent)
      res.status(body.statusCode).json({ ...this.extraFields(), ...extraOf(exception), ...body });
  }
}

/**
 * Save routes (spec section 7: "response success, stock, errorMessage") answer errors with
 * `success: false, stock: null` beside the one error body, so the web app reads one shape either way.
 * Bound per route with @UseFilters; it also catches the guard's 401/403 for those routes.
 */
@Catch()
export class SaveErrorFilter extends HttpErrorFilter {
  protected override extraFields(): Record<string, unknown> {
    return { success: false, stock: null };
  }
}
