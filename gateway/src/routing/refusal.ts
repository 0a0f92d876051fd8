import { AppError } from '@irp/platform';
import { ErrorCode, RouteEntry } from '@irp/proto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, Observable, of, throwError } from 'rxjs';
import { z } from 'zod';

/**
 * What a service answers when the vendor behind a call refuses it (400), does not know what it names (404)
 * or cannot be reached in time (503; the service's own absence answers the same).
 */
const REFUSALS = new Set<string>([ErrorCode.BadRequest, ErrorCode.NotFound, ErrorCode.ServiceUnavailable]);

/**
 * A refusal route's answer to a refusal (the entry's `refusal: 'errorMessage'`): `success: false`, every
 * other field of its response null and the message in `errorMessage`. Checked against the entry's response
 * schema once, when the route is bound: an entry whose response cannot carry a refusal stops the gateway.
 */
export function refusalAnswerOf(entry: RouteEntry): (message: string) => Record<string, unknown> {
  const fields = entry.response instanceof z.ZodObject ? Object.keys(entry.response.shape as object) : [];
  const nulls = Object.fromEntries(fields.map((field) => [field, null]));
  const answer = (message: string) => ({ ...nulls, success: false, errorMessage: message });
  if (!entry.response.safeParse(answer('refused')).success)
    throw new Error(
      `${entry.id}: a refusal route's response must be an object of success, errorMessage and nullable fields`,
    );
  return answer;
}

/** Turns the vendor's refusal of a route's call into its 200 answer (see refusalAnswerOf); other errors pass. */
@Injectable()
export class RefusalInterceptor implements NestInterceptor {
  private readonly answer: (message: string) => Record<string, unknown>;

  constructor(entry: RouteEntry) {
    this.answer = refusalAnswerOf(entry);
  }

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(
        catchError((err: unknown) =>
          err instanceof AppError && REFUSALS.has(err.code)
            ? of(this.answer(err.message))
            : throwError(() => err),
        ),
      );
  }
}
