/** Second factors of sign-in (issue 34): the methods and the texts the gateway and the web app share. */
export const SECOND_FACTOR_METHODS = ['passkey', 'totp', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The 401 of GET /api/login when the password was right and a second factor is still to come. */
export const SECOND_FACTOR_NEEDED =
  'Confirm it is you: use your passkey or a code from your authenticator app';
/** A second step without a live ticket (none, expired after SECOND_FACTOR_TICKET_SECONDS, or used). */
export const SECOND_FACTOR_EXPIRED = 'The sign-in has expired: sign in with your password again';
export const SECOND_FACTOR_REFUSED = 'That passkey or code was not accepted';
/** The 403 of every signed-in call but setting up a second factor, while the roles need one unset. */
export const SECOND_FACTOR_REQUIRED =
  'Your roles need a passkey or an authenticator app: set one up (Account security) before going on';
export const LAST_REQUIRED_FACTOR = 'Your roles need a second factor: add another before removing this one';
/** The httpOnly cookie carrying the ticket between the password and the second factor. */
export const SECOND_FACTOR_COOKIE = 'irp_2fa';

/** A recovery code as typed, in the one form its hash is made of: letters and digits, upper case. */
export const normalizeRecoveryCode = (code: string): string => code.toUpperCase().replace(/[^0-9A-Z]/g, '');
/** A code of six digits is the authenticator app's; anything else is tried as a recovery code. */
export const isAuthenticatorCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''));
