import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The order form's render-time token (issue 34): when it was issued, a nonce, and an HMAC of both with a
 * secret every gateway instance shares. A submission is taken only between `minFillMs` after the token was
 * issued (a person takes that long to fill the form; a script posting at once does not) and `maxAgeMs`
 * after (so one token cannot be kept and reused for days). Pure: the clock and the secret are passed in.
 */
export interface OrderFormTokenRule {
  minFillMs: number;
  maxAgeMs: number;
}

/** Why a token is refused (logged; the caller is told only ORDER_FORM_TOKEN_MESSAGE, whichever it is). */
export type OrderFormTokenProblem = 'missing' | 'malformed' | 'forged' | 'too soon' | 'expired';

/** What the MAC covers besides the token's fields: it cannot stand in for another HMAC of the secret. */
const PURPOSE = 'irp:order-form-token:v1';
const SHAPE = /^(\d{1,16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const macOf = (secret: string, issuedAt: string, nonce: string): Buffer =>
  createHmac('sha256', secret).update(`${PURPOSE}:${issuedAt}.${nonce}`).digest();

/** A token issued at `now` (epoch ms): `<issuedAt>.<nonce>.<mac>`, base64url parts. */
export function issueOrderFormToken(secret: string, now: number): string {
  const issuedAt = String(Math.floor(now));
  const nonce = randomBytes(16).toString('base64url');
  return `${issuedAt}.${nonce}.${macOf(secret, issuedAt, nonce).toString('base64url')}`;
}

/** Null when a submission at `now` may carry this token; else why not. */
export function orderFormTokenProblem(
  secret: string,
  token: string | null | undefined,
  now: number,
  rule: OrderFormTokenRule,
): OrderFormTokenProblem | null {
  if (!token) return 'missing';
  const parts = SHAPE.exec(token);
  if (!parts) return 'malformed';
  const [, issuedAt = '', nonce = '', mac = ''] = parts;
  if (!timingSafeEqual(Buffer.from(mac, 'base64url'), macOf(secret, issuedAt, nonce))) return 'forged';
  // A token from the future (another instance's clock ahead) waits like a fresh one.
  const age = now - Number(issuedAt);
  if (age < rule.minFillMs) return 'too soon';
  if (age > rule.maxAgeMs) return 'expired';
  return null;
}
