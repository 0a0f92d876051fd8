import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ErrorCode } from '@irp/proto';
import { AppError } from '@irp/platform';
import { LIMITS_UNAVAILABLE, SharedLimiter, SharedLimitStore } from './limit-store';

describe('SharedLimitStore without its database', () => {
  // Nothing listens on port 1: every query fails to connect, as when PostgreSQL is down.
  // No waiting out here (LIMIT_STORE_RETRY_MS 0): the database never comes back.
  const store = new SharedLimitStore({
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    LIMIT_STORE_RETRY_MS: 0,
  });
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

  it("counts in this process instead when the limiter is the widget's ('count-here'): the widgets stay up", async () => {
    const limiter = store.limiter('probe-widget', 3, 60, { whenStoreDown: 'count-here' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await limiter.hit('k'));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers[2]).toMatchObject({ limit: 3, remaining: 0 });
    expect(answers[3].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Another key has its own budget.
    expect((await limiter.hit('other')).allowed).toBe(true);
  });
});

describe('SharedLimitStore starting while the database is busy', () => {
  it('waits out a database out of connection slots (53300) instead of failing the start', async () => {
    const store = new SharedLimitStore({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    const client = { query: jest.fn().mockResolvedValue({ rows: [] }), release: jest.fn() };
    const pool = (store as unknown as { pool: { connect: () => Promise<unknown> } }).pool;
    const connect = jest
      .spyOn(pool, 'connect')
      .mockRejectedValueOnce(
        Object.assign(new Error('remaining connection slots are reserved'), { code: '53300' }),
      )
      .mockResolvedValue(client);
    try {
      await store.onModuleInit();
      expect(connect).toHaveBeenCalledTimes(2);
      expect(client.query).toHaveBeenCalledWith(expect.stringContaining('CREATE TABLE IF NOT EXISTS'));
      expect(client.release).toHaveBeenCalledTimes(1);
    } finally {
      await store.onModuleDestroy();
    }
  });
});

describe('SharedLimiter with its database briefly out of connection slots', () => {
  it('tries again and counts, instead of answering 503 (a CI run once answered sign-ins 503 so)', async () => {
    const memory = new RateLimiterMemory({ keyPrefix: 'busy', points: 5, duration: 60 });
    const busy = () => Object.assign(new Error('remaining connection slots are reserved'), { code: '53300' });
    const penalty = jest.spyOn(memory, 'penalty').mockRejectedValueOnce(busy());
    const consume = jest.spyOn(memory, 'consume').mockRejectedValueOnce(busy());
    const limiter = new SharedLimiter(memory, 5000);
    expect(await limiter.add('k')).toMatchObject({ used: 1 });
    expect(penalty).toHaveBeenCalledTimes(2);
    expect(await limiter.hit('k')).toMatchObject({ allowed: true, remaining: 3 });
    expect(consume).toHaveBeenCalledTimes(2);
    // A key over its limit is still a refusal, not a failure.
    for (let i = 0; i < 3; i++) await limiter.hit('k');
    expect(await limiter.hit('k')).toMatchObject({ allowed: false, remaining: 0 });
  });
});
