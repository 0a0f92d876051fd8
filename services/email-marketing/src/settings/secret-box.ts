import { ConfigError } from '@irp/platform';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What marks a value sealed by this box (and its format's version) in a column. */
const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The development key used when EMAIL_SECRETS_KEY is not set outside production (`make up`, tests): public,
 * so it protects nothing; production refuses to start without a key of its own.
 */
const DEVELOPMENT_KEY = Buffer.from('irportal-development-only-key-32', 'utf8');

/** EMAIL_SECRETS_KEY as 32 bytes: 64 hex digits or base64 (`openssl rand -base64 32`); undefined when unset. */
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

export const SECRETS_KEY_FORMAT =
  'EMAIL_SECRETS_KEY must be 32 bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)';

/** The key provider API keys are sealed with: EMAIL_SECRETS_KEY, or the development key outside production. */
export function secretsKeyOf(config: { EMAIL_SECRETS_KEY?: string; NODE_ENV: string }): Buffer {
  const key = parseSecretsKey(config.EMAIL_SECRETS_KEY);
  if (key) return key;
  if (config.NODE_ENV === 'production')
    throw new ConfigError(
      `Invalid configuration:\n  EMAIL_SECRETS_KEY: must be set in production (it encrypts the email-marketing provider keys at rest); ${SECRETS_KEY_FORMAT}`,
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
