import { ApiErrorDto, HTTP_STATUS_OF } from '@irp/proto';
import { AppError, createLogger } from '@irp/platform';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { STATUS_CODES } from 'node:http';

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

/** Every error leaves the gateway as `{ statusCode, error, message, errorMessage }`. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    let status: number = HttpStatus.INTERNAL_SERVER_ERROR;
    let message = 'Internal server error';
    if (exception instanceof AppError) {
      status = HTTP_STATUS_OF[exception.code] ?? 500;
      message = exception.message;
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = messageOf(exception.getResponse(), exception.message);
    } else {
      log.error({ err: exception }, 'unhandled error');
    }
    if (status >= 500 && !(exception instanceof AppError)) log.error({ err: exception }, 'request failed');
    const body: ApiErrorDto = {
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      message,
      errorMessage: message,
    };
    if (!res.headersSent) res.status(status).json(body);
  }
}
