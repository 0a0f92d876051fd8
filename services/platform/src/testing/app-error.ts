import { AppError } from '../errors';

/**
 * Resolves when `p` rejects with an AppError of `code` (and, if given, a message equal to the string or
 * matching the pattern); otherwise rejects saying what came instead, which fails the test awaiting it.
 */
export async function expectAppError(
  p: Promise<unknown>,
  code: string,
  message?: string | RegExp,
): Promise<AppError> {
  const outcome = await p.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected an AppError ${code}, but it resolved to ${JSON.stringify(outcome.value)}`);
  const err = outcome.error;
  if (!(err instanceof AppError)) throw new Error(`expected an AppError ${code}, got ${String(err)}`);
  if (err.code !== code) throw new Error(`expected an AppError ${code}, got ${err.code}: ${err.message}`);
  const matches =
    message === undefined ||
    (typeof message === 'string' ? err.message === message : message.test(err.message));
  if (!matches) throw new Error(`expected ${code} with message ${String(message)}, got "${err.message}"`);
  return err;
}
