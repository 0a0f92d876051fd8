import { AppError } from '@irp/platform/errors';
import { ErrorCode } from '@irp/proto';
import commonPasswords from './common-passwords.json';

/**
 * The password policy of the Users editor and the own password change (issue 21). The seed's demo
 * accounts are not held to it: their published passwords only ever exist outside production.
 */
export const MIN_PASSWORD_LENGTH = 12;

/**
 * Common passwords (committed data, generated once: well-known leaked passwords, dictionary words with the
 * usual suffixes, keyboard walks and digit runs), compared lower-cased.
 */
const COMMON = new Set(commonPasswords.map((p) => p.toLowerCase()));

/** Why the password is refused, or null when the policy accepts it. */
export function passwordProblem(password: string, username: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.trim().toLowerCase() === username.trim().toLowerCase())
    return 'The password must not be the username';
  if (COMMON.has(password.toLowerCase())) return 'This password is too common; choose another';
  return null;
}

/** Refuses (BAD_REQUEST, with the reason) a password the policy does not accept. */
export function checkPassword(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw new AppError(ErrorCode.BadRequest, problem);
}
