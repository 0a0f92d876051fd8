import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../config';

/** What marks a value sealed by this box (and its format's version) in a column. */
const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The development key used when a service's secrets key is not set outside production (`make up`, tests):
 * public, so it protects nothing; production refuses to start without a key of its own.
 */
const DEVELOPMENT_KEY = Buffer.from('irportal-development-only-key-32', 'utf8');

/** A secrets key as 32 bytes: 64 hex digits or base64 (`openssl rand -base64 32`); undefined when unset. */
export function parseSecretsKey(value: string | undefined): Buffer | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(v)) {
    const key = Buffer.from(v, 'base64');
    if (key.length === 32) return key;
  }
  return undefined;
}

/** What a secrets key variable must hold, as the refusal at start says it. */
export function secretsKeyFormat(variable: string): string {
  return `${variable} must be 32 bytes as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`;
}

/** A service's secrets key variable in its config schema: unset, or a key `parseSecretsKey` takes. */
export function secretsKeyVariable(variable: string) {
  return z
    .string()
    .optional()
    .refine((v) => !v?.trim() || parseSecretsKey(v) !== undefined, secretsKeyFormat(variable));
}

/**
 * The key a service seals its secrets with: the variable's value, or the development key outside
 * production; production without one stops the start, saying what the key protects.
 */
export function secretsKeyOf(
  value: string | undefined,
  nodeEnv: string,
  variable: string,
  protects: string,
): Buffer {
  const key = parseSecretsKey(value);
  if (key) return key;
  if (nodeEnv === 'production')
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: must be set in production (it encrypts ${protects} at rest); ${secretsKeyFormat(variable)}`,
    );
  return DEVELOPMENT_KEY;
}

/**
 * AES-256-GCM for secrets stored in a column (the providers' API keys): `v1:` + base64url(iv | tag |
 * ciphertext), a fresh 96-bit IV per value. Blank stays blank (nothing to hide, and "is a key set" stays a
 * plain SQL test).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox: the key must be 32 bytes');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plain: string): string {
    if (!plain) return '';
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain value; throws when it was sealed with another key (or altered). */
  open(sealed: string): string {
    if (!sealed) return '';
    if (!SecretBox.isSealed(sealed)) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}
