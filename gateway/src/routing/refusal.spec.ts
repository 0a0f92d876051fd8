import { AppError } from '@irp/platform';
import { access, defineRoutes, ErrorCode } from '@irp/proto';
import { BadRequestException, CallHandler, ExecutionContext } from '@nestjs/common';
import { firstValueFrom, Observable, throwError, of } from 'rxjs';
import { z } from 'zod';
import { RefusalInterceptor, refusalAnswerOf } from './refusal';

const probe = defineRoutes('probe', {
  create: {
    method: 'POST',
    path: '/api/probe/create',
    access: access.admin(),
    summary: "Create something at a vendor's",
    response: z.object({
      success: z.boolean(),
      thingId: z.string().nullable(),
      errorMessage: z.string().nullable(),
    }),
    refusal: 'errorMessage',
  },
  strict: {
    method: 'POST',
    path: '/api/probe/strict',
    access: access.admin(),
    summary: 'A response that cannot carry a refusal',
    response: z.object({ success: z.boolean(), thingId: z.string(), errorMessage: z.string().nullable() }),
    refusal: 'errorMessage',
  },
});

const handled = (answer: () => Observable<unknown>): CallHandler => ({ handle: answer });
const run = (answer: () => Observable<unknown>) =>
  firstValueFrom(new RefusalInterceptor(probe.create).intercept({} as ExecutionContext, handled(answer)));

describe('refusal: a vendor refusal as the answer', () => {
  it('answers success false, the other fields null and the message, in the response order', () => {
    const body = refusalAnswerOf(probe.create)('Contact name already exists');
    expect(body).toEqual({ success: false, thingId: null, errorMessage: 'Contact name already exists' });
    expect(Object.keys(body)).toEqual(['success', 'thingId', 'errorMessage']);
  });

  it('refuses, when the route is bound, a response that cannot carry a refusal', () => {
    expect(() => refusalAnswerOf(probe.strict)).toThrow(/probe\.strict/);
  });

  it("turns the service's 400, 404 and 503 into the answer and passes the success through", async () => {
    for (const code of [ErrorCode.BadRequest, ErrorCode.NotFound, ErrorCode.ServiceUnavailable])
      await expect(run(() => throwError(() => new AppError(code, `refused ${code}`)))).resolves.toEqual({
        success: false,
        thingId: null,
        errorMessage: `refused ${code}`,
      });
    const ok = { success: true, thingId: 't-1', errorMessage: null };
    await expect(run(() => of(ok))).resolves.toBe(ok);
  });

  it("leaves other errors alone: the caller's own (401, 403, 409, 500) and the gateway's validation", async () => {
    for (const err of [
      new AppError(ErrorCode.Forbidden, 'no'),
      new AppError(ErrorCode.Conflict, 'twice'),
      new AppError(ErrorCode.Internal, 'boom'),
      new BadRequestException('id is required'),
    ])
      await expect(run(() => throwError(() => err))).rejects.toBe(err);
  });
});
