import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

type QueryError = FetchBaseQueryError | SerializedError | undefined | null;

/** The HTTP status of a failed call, or undefined for network and client-side failures. */
export function errorStatusOf(error: QueryError | unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return undefined;
}

/**
 * The text to show for a failed call: the gateway's `errorMessage` (every error body has one, spec
 * section 8), else the thrown error's message, else a generic line naming the status.
 */
export function errorMessageOf(error: QueryError | unknown): string {
  if (error && typeof error === 'object') {
    if ('data' in error && error.data && typeof error.data === 'object') {
      const body = error.data as { errorMessage?: unknown; message?: unknown };
      if (typeof body.errorMessage === 'string' && body.errorMessage) return body.errorMessage;
      if (typeof body.message === 'string' && body.message) return body.message;
    }
    if ('error' in error && typeof error.error === 'string' && error.error) return error.error;
    if ('message' in error && typeof error.message === 'string' && error.message) return error.message;
    const status = errorStatusOf(error);
    if (status !== undefined) return `The server answered ${status}`;
  }
  if (typeof error === 'string' && error) return error;
  return 'Something went wrong';
}
