import { ErrorCode } from '@irp/proto';
import { AppError } from '@irp/platform';
import { LIMITS_UNAVAILABLE, SharedLimitStore } from './limit-store';

describe('SharedLimitStore without its database', () => {
  // Nothing listens on port 1: every query fails to connect, as when PostgreSQL is down.
  const store = new SharedLimitStore({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
  afterAll(() => store.onModuleDestroy());

  it('refuses with 503 rather than let a request go uncounted', async () => {
    const limiter = store.limiter('probe', 5, 60);
    for (const attempt of [
      limiter.hit('k'),
      limiter.blockedFor('k'),
      limiter.block('k', 1),
      limiter.forget('k'),
    ]) {
      const err = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: ErrorCode.ServiceUnavailable, message: LIMITS_UNAVAILABLE });
    }
  });
});
