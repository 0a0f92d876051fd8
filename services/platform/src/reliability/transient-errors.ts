import { ErrorCode } from '@irp/proto';
import { AppError } from '../errors';
import { CallTimeoutError } from './retry';

/** SQLSTATE codes that mean "the database is (briefly) not there", not "the statement is wrong". */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
  '57P01', // admin_shutdown (a restart, or pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '55P03', // lock_not_available
]);
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const TRANSIENT_DATABASE_MESSAGES = [
  /Connection terminated/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /is not currently accepting connections/i,
  /Client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /Connection is not established/i,
  /sorry, too many clients already/i,
];
/**
 * kafkajs errors that say "the broker is away or slow" although kafkajs itself gave up on them (its own
 * retries ran out, a lock or request timed out); any other kafkajs error counts by its `retriable` flag.
 */
const TRANSIENT_KAFKA_ERRORS = new Set([
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
]);

function fieldOf(error: unknown, key: string): unknown {
  return typeof error === 'object' && error !== null && key in error
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** The error and what it wraps: TypeORM's `driverError`, an Error's `cause` (kafkajs sets it), a few deep. */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  const queue = [error];
  while (queue.length && chain.length < 8) {
    const e = queue.shift();
    if (!e || chain.includes(e)) continue;
    chain.push(e);
    queue.push(fieldOf(e, 'driverError'), fieldOf(e, 'cause'));
  }
  return chain;
}

/**
 * TypeORM's errors for a query runner it released itself: its listener on the pg client releases the runner
 * when the connection is cut, so a transaction's next statement (or its rollback) fails with one of these
 * instead of the connection error. They follow a lost connection, never a wrong statement.
 */
const RELEASED_QUERY_RUNNER_ERRORS = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

function isTransientDatabaseFailure(e: unknown): boolean {
  const name = fieldOf(e, 'name');
  if (typeof name === 'string' && RELEASED_QUERY_RUNNER_ERRORS.has(name)) return true;
  const code = fieldOf(e, 'code');
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || code.startsWith('08')) return true;
    if (TRANSIENT_NETWORK_CODES.has(code)) return true;
  }
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  return TRANSIENT_DATABASE_MESSAGES.some((re) => re.test(message));
}

/**
 * True for a database failure that waiting cures: a restart or a dropped connection (the pool reconnects),
 * too many connections, a deadlock or serialization failure (the next try succeeds).
 */
export function isTransientDatabaseError(error: unknown): boolean {
  // Only the error and TypeORM's driverError: a `cause` may be a source's network error (fetch's
  // ECONNREFUSED), which a caller storing documents must count as the source's failure, not the database's.
  return [error, fieldOf(error, 'driverError')].some((e) => e && isTransientDatabaseFailure(e));
}

/**
 * The handler reliability policy's one question: may trying again later succeed where this try failed?
 * Yes for the database or the broker being away or slow, a call or request that timed out, and an AppError
 * that says a service is unavailable. No for everything else: a validation failure, a rule refusal (an
 * AppError with a client code), a bug — trying those again only delays their arrival in the DLQ.
 */
export function isTransientError(error: unknown): boolean {
  return chainOf(error).some((e) => {
    if (e instanceof AppError) return e.code === ErrorCode.ServiceUnavailable && !e.final;
    if (e instanceof CallTimeoutError) return true;
    const name = fieldOf(e, 'name');
    if (typeof name === 'string' && name.startsWith('KafkaJS')) {
      return TRANSIENT_KAFKA_ERRORS.has(name) || fieldOf(e, 'retriable') === true;
    }
    return isTransientDatabaseFailure(e);
  });
}
