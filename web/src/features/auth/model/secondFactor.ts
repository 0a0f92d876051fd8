import { SECOND_FACTOR_METHODS, type SecondFactorMethod } from '@irp/proto';

/**
 * The second factors a sign-in still waits for: GET /api/login answers a right password of a user with a
 * second factor 401 with `secondFactor: { methods }` (issue 34). Null for any other failure (a wrong
 * password, the network), or when none of the methods is one this app knows.
 */
export function secondFactorMethodsOf(error: unknown): SecondFactorMethod[] | null {
  if (!error || typeof error !== 'object' || !('status' in error) || error.status !== 401) return null;
  const data = 'data' in error ? error.data : undefined;
  const secondFactor = data && typeof data === 'object' && 'secondFactor' in data ? data.secondFactor : null;
  const methods =
    secondFactor && typeof secondFactor === 'object' && 'methods' in secondFactor
      ? secondFactor.methods
      : null;
  if (!Array.isArray(methods)) return null;
  const known = SECOND_FACTOR_METHODS.filter((method) => methods.includes(method));
  return known.length > 0 ? known : null;
}

/** A code typed into the second step: the authenticator app's (totp) or a recovery code. */
export const acceptsCode = (methods: readonly SecondFactorMethod[]): boolean =>
  methods.includes('totp') || methods.includes('recovery');

/** What the second step asks for, in the words of its methods. */
export function secondFactorPrompt(methods: readonly SecondFactorMethod[]): string {
  const passkey = methods.includes('passkey');
  const code = acceptsCode(methods);
  if (passkey && code)
    return 'Use your passkey, or enter a code from your authenticator app or a recovery code.';
  if (passkey) return 'Use your passkey to finish signing in.';
  return 'Enter a code from your authenticator app or one of your recovery codes.';
}
