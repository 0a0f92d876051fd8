import { z } from 'zod';

/**
 * What marks a value sealed for one service on the bus (the platform's sealed box): a password or a
 * provider key crosses Kafka only in this form, and a contract field that holds one refuses anything else.
 */
export const SEALED_PREFIX = 'sealed:v1:';

/** A secret sealed for the service that receives it (never the value in clear). */
export const SealedSecretSchema = z
  .string()
  .max(12_000)
  .refine(
    (v) => v.startsWith(SEALED_PREFIX),
    'a secret crosses the bus sealed for its service, never in clear',
  );

/** What a sealed value is, authenticated with it: a sealed password cannot be replayed as a provider key. */
export const SealContext = {
  Password: 'password',
  ProviderKey: 'provider-key',
  /** A TOTP secret (the gateway made it) and a typed TOTP or recovery code (issue 34). */
  TotpSecret: 'totp-secret',
  SecondFactorCode: 'second-factor-code',
} as const;

/** A session or refresh token's SHA-256 (hex): what crosses the bus and is stored instead of the token. */
export const TokenHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a token hash is 64 hex digits');

/**
 * A secret field of a message that may also say "none" (blank) or "the stored one" (a mask the service
 * knows): anything else must be sealed, so a key typed by a user never crosses the bus in clear.
 */
export const sealedOrKept = (...masks: string[]) =>
  z
    .string()
    .max(12_000)
    .refine(
      (v) => v.trim() === '' || masks.includes(v.trim()) || v.startsWith(SEALED_PREFIX),
      'a secret crosses the bus sealed for its service, never in clear',
    );
