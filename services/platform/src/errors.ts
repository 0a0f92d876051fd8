import { ErrorCode } from '@irp/proto';

/** The one error type a handler throws; it becomes `{ ok: false, error: { code, message } }`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
