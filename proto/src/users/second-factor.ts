import { z } from 'zod';
import { SealedSecretSchema, TokenHashSchema } from '../common/sealed';
import { ActorSchema } from '../stocks/stock';
import { TokenHashesSchema } from './messages';
import { SECOND_FACTOR_METHODS } from './second-factor-texts';

/**
 * Second factors of staff sign-in (issue 34): passkeys (WebAuthn) with TOTP as the fallback, and recovery
 * codes. Nothing secret crosses the bus in clear: the gateway makes the sign-in ticket and the recovery codes
 * and sends their SHA-256 only; a TOTP secret and a typed code are sealed for the users service. The WebAuthn
 * options and responses are public-key material and travel as they are.
 */

export const SecondFactorMethodSchema = z.enum(SECOND_FACTOR_METHODS);

/** WebAuthn's JSON forms (options, registration and authentication responses), checked by the verifier. */
const WebAuthnJsonSchema = z.record(z.string(), z.unknown());

/** Recovery codes the gateway made, as hashes: kept when the user has none yet (or asked for new ones). */
const RecoveryCodeHashesSchema = z.array(TokenHashSchema).min(1).max(20);

/** users.authenticate's reply when the password was right but a second factor is still to come. */
export const SecondFactorNeededSchema = z.object({
  secondFactor: z.object({ methods: z.array(SecondFactorMethodSchema).min(1) }),
});

/** The sign-in's second step: options for a passkey assertion, for the ticket of a right password. */
export const SignInPasskeyOptionsRequestSchema = z.object({ ticketHash: TokenHashSchema });
export const PasskeyOptionsReplySchema = z.object({ options: WebAuthnJsonSchema });

/** The sign-in's second step: a passkey assertion, or a TOTP or recovery code (sealed). */
export const SecondFactorRequestSchema = z
  .object({
    ticketHash: TokenHashSchema,
    tokens: TokenHashesSchema,
    passkey: WebAuthnJsonSchema.optional(),
    code: SealedSecretSchema.optional(),
    userAgent: z.string().max(500).optional(),
    ip: z.string().max(100).optional(),
  })
  .refine((r) => Boolean(r.passkey) !== Boolean(r.code), 'either a passkey response or a code');

/** The signed-in user's own second factors (the header's account menu). */
export const AccountSecurityRequestSchema = z.object({ actor: ActorSchema });
export const PasskeySummarySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  createdAt: z.string().datetime(),
  lastUsedAt: z.string().datetime().nullable(),
});
export const AccountSecuritySchema = z.object({
  passkeys: z.array(PasskeySummarySchema),
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int().min(0),
  /** This user's roles need a second factor (MFA_REQUIRED_ROLES): the last one cannot be removed. */
  required: z.boolean(),
});
export type AccountSecurityDto = z.infer<typeof AccountSecuritySchema>;

export const AddPasskeyRequestSchema = z.object({
  actor: ActorSchema,
  name: z.string().trim().min(1).max(60),
  response: WebAuthnJsonSchema,
  recoveryCodeHashes: RecoveryCodeHashesSchema,
});
/** `recoveryCodesKept`: the codes the gateway made are now the user's (their first factor): show them once. */
export const FactorAddedReplySchema = z.object({ recoveryCodesKept: z.boolean() });
export const RemovePasskeyRequestSchema = z.object({ actor: ActorSchema, id: z.string().uuid() });
export const BeginTotpRequestSchema = z.object({ actor: ActorSchema, secret: SealedSecretSchema });
export const ConfirmTotpRequestSchema = z.object({
  actor: ActorSchema,
  code: SealedSecretSchema,
  recoveryCodeHashes: RecoveryCodeHashesSchema,
});
export const RemoveTotpRequestSchema = z.object({ actor: ActorSchema });
export const RenewRecoveryCodesRequestSchema = z.object({
  actor: ActorSchema,
  recoveryCodeHashes: RecoveryCodeHashesSchema,
});
export const DoneReplySchema = z.object({ done: z.literal(true) });

/** REST shapes (docs/api/users.md, beyond the spec). */
export const SecondFactorCodeBodySchema = z.object({ code: z.string().trim().min(6).max(40) }).strict();
export const PasskeyResponseBodySchema = z.object({ response: WebAuthnJsonSchema }).strict();
export const AddPasskeyBodySchema = z
  .object({ name: z.string().trim().min(1, 'Name the passkey').max(60), response: WebAuthnJsonSchema })
  .strict();
export const PasskeyIdParamsSchema = z.object({ id: z.string().uuid('must be a passkey id') });
export const PasskeyOptionsResponseSchema = z.object({ options: WebAuthnJsonSchema });
export const TotpSetupResponseSchema = z.object({
  /** Base32, for typing into an authenticator app. */
  secret: z.string(),
  /** otpauth://totp/... for a QR code. */
  uri: z.string(),
});
export const FactorAddedResponseSchema = z.object({
  success: z.literal(true),
  /** Shown once: the user's recovery codes, when this was their first second factor (or asked anew). */
  recoveryCodes: z.array(z.string()).optional(),
});
