import { ErrorCode } from '@irp/proto';

/**
 * The one error type a handler throws; it becomes `{ ok: false, error: { code, message } }`. A
 * SERVICE_UNAVAILABLE one is tried again by the handler (the database or broker may be back in a moment)
 * unless it says `final`: an adapter that already retried its vendor as the vendor allows says so, and the
 * caller hears of the outage at once instead of at its deadline.
 */
export class AppError extends Error {
  readonly final: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { final?: boolean } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.final = options.final === true;
  }
}
