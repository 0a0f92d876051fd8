import { createHash } from 'node:crypto';
import { ErrorCode } from '@irp/proto';
import {
  AppError,
  createLogger,
  ensureSchema,
  errorText,
  GATEWAY_TENANT,
  HandlerRetryPolicy,
  isTransientDatabaseError,
  retryTransient,
} from '@irp/platform';
import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import {
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

const log = createLogger('limits');

/** How long a start waits for the database (a minute, tries 0.25 s apart doubling to 5 s). */
const STARTUP_RETRY: HandlerRetryPolicy = { maxMs: 60_000, firstDelayMs: 250, maxDelayMs: 5000 };

/** The gateway's own schema, owned by its role (docs/adr/0011): only the shared counters live there. */
export const LIMITS_SCHEMA = GATEWAY_TENANT.schema;
export const LIMITS_TABLE = 'rate_limits';

/**
 * Counters shared by every gateway instance, in PostgreSQL (rate-limiter-flexible's Postgres store), so a
 * limit holds however many instances serve: N instances do not give an attacker N times the attempts.
 * One table for every limiter (each its own key prefix): the store's prepared statements are named per
 * statement, not per table. Keys are hashed, so the table holds no username or address, and a long
 * username fits the store's key column.
 */
@Injectable()
export class SharedLimitStore implements OnModuleInit, OnModuleDestroy {
  private readonly pool: Pool;

  private readonly retryMs: number;

  constructor(
    @Inject(GATEWAY_CONFIG)
    config: Pick<GatewayConfig, 'DATABASE_URL'> & {
      LIMIT_STORE_RETRY_MS?: number;
      DATABASE_POOL_IDLE_MS?: number;
    },
  ) {
    this.retryMs = config.LIMIT_STORE_RETRY_MS ?? 15_000;
    this.pool = new Pool({
      connectionString: config.DATABASE_URL,
      max: 5,
      idleTimeoutMillis: config.DATABASE_POOL_IDLE_MS ?? 10_000,
    });
    // An idle client's error (the database restarted) must not end the process; the next query reconnects.
    this.pool.on('error', (err) => log.warn({ err }, 'rate limit store connection lost'));
  }

  /**
   * The table, made once whatever the number of instances starting together (an advisory lock). A database
   * briefly away or out of connection slots (SQLSTATE 53300 while other processes start) is waited out for
   * up to a minute rather than failing the start.
   */
  async onModuleInit(): Promise<void> {
    await retryTransient(() => this.createTable(), {
      policy: STARTUP_RETRY,
      onRetry: (err, attempt, delayMs) =>
        log.warn(
          { err: errorText(err), attempt, delayMs },
          'rate limit store not reachable yet; trying again',
        ),
    });
  }

  private async createTable(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`${LIMITS_SCHEMA}.${LIMITS_TABLE}`]);
      await ensureSchema(client, LIMITS_SCHEMA);
      // rate-limiter-flexible's own table definition (RateLimiterPostgres#_getCreateTableStmt).
      await client.query(
        `CREATE TABLE IF NOT EXISTS "${LIMITS_SCHEMA}"."${LIMITS_TABLE}" (
           key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
      );
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`${LIMITS_SCHEMA}.${LIMITS_TABLE}`]);
      client.release();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }

  /**
   * A limiter of `points` per `durationSeconds` per key, its keys apart from other limiters' by `prefix`.
   * `whenStoreDown`: 'refuse' (sign-ins, comments: 503 rather than uncounted) or 'count-here' (the public
   * widget reads: while the database is unreachable each instance counts on its own, so a database outage
   * does not take every client's website widget down with it). Either way a key over its limit is then
   * refused from memory until its window ends, without asking the database again.
   */
  limiter(
    prefix: string,
    points: number,
    durationSeconds: number,
    { whenStoreDown = 'refuse' }: { whenStoreDown?: 'refuse' | 'count-here' } = {},
  ): SharedLimiter {
    return new SharedLimiter(
      new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        schemaName: LIMITS_SCHEMA,
        tableName: LIMITS_TABLE,
        tableCreated: true,
        keyPrefix: prefix,
        points,
        duration: durationSeconds,
        inMemoryBlockOnConsumed: points + 1,
        insuranceLimiter:
          whenStoreDown === 'count-here'
            ? new RateLimiterMemory({ keyPrefix: prefix, points, duration: durationSeconds })
            : undefined,
      }),
      this.retryMs,
    );
  }
}

export const LIMITS_UNAVAILABLE =
  'This is not available right now (the rate limits cannot be checked). Please try again shortly.';

/**
 * How long a request waits out a database that is briefly unreachable or out of connection slots (SQLSTATE
 * 53300, a busy machine's burst of processes), trying again 50 ms apart doubling to 1 s, before its 503
 * (LIMIT_STORE_RETRY_MS): a CI run once answered sign-ins 503 while another suite held the slots a moment.
 */
const retryFor = (maxMs: number): HandlerRetryPolicy => ({ maxMs, firstDelayMs: 50, maxDelayMs: 1000 });

/**
 * The store's failure as the gateway's 503: a limit that cannot be checked refuses (a sign-in or a comment
 * waits for the database rather than go uncounted), and the request log says why. A transient database
 * failure is tried again first (REQUEST_RETRY).
 */
async function orUnavailable<T>(work: () => Promise<T>, retryMs: number): Promise<T> {
  try {
    return await retryTransient(work, {
      policy: retryFor(retryMs),
      transient: isTransientDatabaseError,
      onRetry: (err, attempt, delayMs) =>
        log.warn(
          { err: errorText(err), attempt, delayMs },
          'rate limit store failed transiently; trying again',
        ),
    });
  } catch (err) {
    log.error({ err }, 'rate limit store failed');
    throw new AppError(ErrorCode.ServiceUnavailable, LIMITS_UNAVAILABLE);
  }
}

/** What one request of a key used of its budget. */
export interface LimitDecision {
  allowed: boolean;
  /** The points a key has per window. */
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until the key's window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Counts per key (hashed) in the shared store. The store is rate-limiter-flexible's: PostgreSQL for the
 * gateway (SharedLimitStore.limiter), its memory store where a unit test checks a caller's rules.
 */
export class SharedLimiter {
  constructor(
    private readonly store: RateLimiterAbstract,
    /** How long a transient store failure is tried again before the 503. */
    private readonly retryMs = 15_000,
  ) {}

  private static key(key: string): string {
    return createHash('sha256').update(key).digest('base64url');
  }

  /**
   * Counts `points` for `key` (one atomic statement: concurrent adds each see their own total); how many the
   * key has used in its window, and ms until it ends. `seconds`: the window of a key that starts one now.
   */
  async add(
    key: string,
    points = 1,
    { seconds }: { seconds?: number } = {},
  ): Promise<{ used: number; msBeforeNext: number }> {
    // penalty counts without refusing (consume would reject past the limit): the caller decides.
    const options = seconds === undefined ? undefined : { customDuration: seconds };
    const res = await orUnavailable(
      () => this.store.penalty(SharedLimiter.key(key), points, options),
      this.retryMs,
    );
    return { used: res.consumedPoints, msBeforeNext: res.msBeforeNext };
  }

  /** The points a key has per window. */
  get limit(): number {
    return this.store.points;
  }

  /** Counts one request of `key`; refused past the limit (and then not counted again). */
  async hit(key: string): Promise<LimitDecision> {
    const decision = (res: RateLimiterRes, allowed: boolean): LimitDecision => ({
      allowed,
      limit: this.limit,
      remaining: allowed ? res.remainingPoints : 0,
      retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    });
    // consume rejects with the key's state when over the limit (a refusal, not a failure), with an Error
    // when the store failed (tried again when transient, else 503).
    const { res, allowed } = await orUnavailable(
      () =>
        this.store.consume(SharedLimiter.key(key)).then(
          (counted) => ({ res: counted, allowed: true }),
          (refusal: unknown) =>
            refusal instanceof RateLimiterRes ? { res: refusal, allowed: false } : Promise.reject(refusal),
        ),
      this.retryMs,
    );
    return decision(res, allowed);
  }

  /** Gives back one request of `key` counted by `hit` (one that turned out not to be what the limit is about). */
  async giveBack(key: string): Promise<void> {
    await orUnavailable(() => this.store.reward(SharedLimiter.key(key), 1), this.retryMs);
  }

  /** What `key` has used in its window (0 when none). */
  async used(key: string): Promise<{ used: number; msBeforeNext: number }> {
    const res = await orUnavailable(() => this.store.get(SharedLimiter.key(key)), this.retryMs);
    return res ? { used: res.consumedPoints, msBeforeNext: res.msBeforeNext } : { used: 0, msBeforeNext: 0 };
  }

  /** Holds `key` for `seconds`: `blockedFor` answers until then. */
  async block(key: string, seconds: number): Promise<void> {
    await orUnavailable(() => this.store.block(SharedLimiter.key(key), seconds), this.retryMs);
  }

  /** Ms `key` is still held for by `block` (0 when free). */
  async blockedFor(key: string): Promise<number> {
    const res = await orUnavailable(() => this.store.get(SharedLimiter.key(key)), this.retryMs);
    return res && res.consumedPoints > this.store.points ? res.msBeforeNext : 0;
  }

  async forget(key: string): Promise<void> {
    await orUnavailable(() => this.store.delete(SharedLimiter.key(key)), this.retryMs);
  }
}
