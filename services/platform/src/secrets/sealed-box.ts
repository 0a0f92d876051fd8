import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { ErrorCode, SEALED_PREFIX } from '@irp/proto';
import { z } from 'zod';
import { ConfigError } from '../config';
import { SERVICE_CONFIG } from '../define-service';
import { AppError } from '../errors';

/**
 * Secrets on the bus (issue 34): a password or a provider key the gateway takes from a user crosses Kafka
 * sealed for the one service that uses it, so the broker, its seven days of retention, a `.dlq` copy or a
 * debugging consumer holds nothing it can open. An ECIES sealed box: X25519 with a fresh key per value,
 * HKDF-SHA256, AES-256-GCM; the context (what the value is, for whom) is authenticated, so a sealed password
 * cannot be replayed as a provider key. `sealed:v1:` + base64url(ephemeral public key | iv | tag | cipher).
 */

/** The services that receive sealed values, each holding the private half of its own key pair. */
export type SealRecipient = 'users' | 'email-marketing';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** PKCS#8 DER of an X25519 private key: this prefix, then its 32 raw bytes (RFC 8410). */
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

/**
 * Development key pairs (base64url of the raw 32 bytes): `make up` and the tests use them; they are in this
 * repository, so a production process refuses them.
 */
export const DEV_SEAL_KEYS: Record<SealRecipient, { privateKey: string; publicKey: string }> = {
  users: {
    privateKey: '6HqtPEAiG_JxmsVzGlKBFcJSH_M6mLFqq0X7rzijwkw',
    publicKey: 'N1lEdvfwGuhUtGtnKq5w61RHPniPTnVJbI5dLWFGFCs',
  },
  'email-marketing': {
    privateKey: 'EPwVhj2hk8r01bWb-VvA5wYUZY82DECCEqW5THNBjFM',
    publicKey: 'fHpeRD0--TAI5bTcSY6iLkocWGWX5lTht7m8jSIcC0Y',
  },
};

const rawKey = (value: string): Buffer | undefined => {
  const v = value.trim();
  if (!/^[A-Za-z0-9_-]{43}$/.test(v)) return undefined;
  const raw = Buffer.from(v, 'base64url');
  return raw.length === KEY_BYTES ? raw : undefined;
};

const publicKeyObject = (raw: Buffer): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw.toString('base64url') }, format: 'jwk' });

const privateKeyObject = (raw: Buffer): KeyObject =>
  createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });

const rawPublicOf = (key: KeyObject): Buffer =>
  Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');

function boxKey(shared: Buffer, ephemeral: Buffer, recipient: Buffer): Buffer {
  return Buffer.from(
    hkdfSync('sha256', shared, Buffer.concat([ephemeral, recipient]), 'irportal sealed box v1', KEY_BYTES),
  );
}

/** A new key pair for a recipient service, as its variables take them. */
export function newSealKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync('x25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return { privateKey: jwk.d as string, publicKey: jwk.x as string };
}

/** Seals `plain` for the holder of the private half of `publicKey`; `context` must match at opening. */
export function sealFor(publicKey: string, context: string, plain: string): string {
  const recipient = rawKey(publicKey);
  if (!recipient) throw new Error('sealFor: not an X25519 public key (43 base64url characters)');
  const { privateKey: ephemeralPrivate, publicKey: ephemeralPublic } = generateKeyPairSync('x25519');
  const ephemeral = rawPublicOf(ephemeralPublic);
  const shared = diffieHellman({ privateKey: ephemeralPrivate, publicKey: publicKeyObject(recipient) });
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', boxKey(shared, ephemeral, recipient), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([ephemeral, iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The recipient's side: opens what was sealed for its public key. */
export class SealOpener {
  private readonly privateKey: KeyObject;
  private readonly publicRaw: Buffer;

  constructor(privateKey: string) {
    const raw = rawKey(privateKey);
    if (!raw) throw new Error('SealOpener: not an X25519 private key (43 base64url characters)');
    this.privateKey = privateKeyObject(raw);
    this.publicRaw = rawPublicOf(createPublicKey(this.privateKey));
  }

  /** The public half, as the gateway's variable takes it. */
  get publicKey(): string {
    return this.publicRaw.toString('base64url');
  }

  /** The plain value; throws when it was sealed for another key or context, or altered. */
  open(sealed: string, context: string): string {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    if (raw.length < KEY_BYTES + IV_BYTES + TAG_BYTES) throw new Error('a sealed value too short');
    const ephemeral = raw.subarray(0, KEY_BYTES);
    const shared = diffieHellman({ privateKey: this.privateKey, publicKey: publicKeyObject(ephemeral) });
    const decipher = createDecipheriv(
      'aes-256-gcm',
      boxKey(shared, ephemeral, this.publicRaw),
      raw.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES),
    );
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(KEY_BYTES + IV_BYTES, KEY_BYTES + IV_BYTES + TAG_BYTES));
    const start = KEY_BYTES + IV_BYTES + TAG_BYTES;
    return Buffer.concat([decipher.update(raw.subarray(start)), decipher.final()]).toString('utf8');
  }
}

/** A seal key variable in a config schema: unset, or 43 base64url characters (32 bytes). */
export function sealKeyVariable(variable: string) {
  return z
    .string()
    .optional()
    .refine(
      (v) => !v?.trim() || rawKey(v) !== undefined,
      `${variable} must be an X25519 key as 43 base64url characters (\`npm run seal-keys\` prints a pair)`,
    );
}

/**
 * A seal key a process uses: the variable's value, or the recipient's development key outside production.
 * Production refuses both an unset variable and the published development key, naming what it protects.
 */
export function sealKeyOf(
  value: string | undefined,
  nodeEnv: string,
  variable: string,
  half: 'privateKey' | 'publicKey',
  recipient: SealRecipient,
): string {
  const problem = sealKeyProblem(value, nodeEnv, half, recipient);
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${variable}: ${problem}`);
  return value?.trim() || DEV_SEAL_KEYS[recipient][half];
}

/** What is wrong with a seal key variable's value in this environment, or undefined. */
export function sealKeyProblem(
  value: string | undefined,
  nodeEnv: string,
  half: 'privateKey' | 'publicKey',
  recipient: SealRecipient,
): string | undefined {
  if (nodeEnv !== 'production') return undefined;
  const set = value?.trim();
  const what = `(it seals what users type for the ${recipient} service on the bus)`;
  if (!set) return `must be set in production ${what}`;
  if (set === DEV_SEAL_KEYS[recipient][half])
    return `a development value published in this repository; set your own in production ${what}`;
  return undefined;
}

/**
 * The form a session or refresh token travels and is stored in: SHA-256 (hex). The gateway makes the tokens
 * and sends only this; the users service never sees a token it could hand back.
 */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new session or refresh token: 256 random bits, URL-safe. */
export const newSessionToken = (): string => randomBytes(32).toString('base64url');

const SEALED_WHAT: Record<string, string> = {
  password: 'password',
  'provider-key': 'email-marketing API key',
  'totp-secret': 'authenticator secret',
  'second-factor-code': 'code',
};

/**
 * A recipient service's side of the sealed box, from its SEAL_PRIVATE_KEY (the development key outside
 * production; production without its own stops the start). A value sealed for another key or context is a
 * clear 400 naming the gateway's variable to check.
 */
export class SealedInbox {
  private readonly opener: SealOpener;

  constructor(
    config: { SEAL_PRIVATE_KEY?: string; NODE_ENV: string },
    private readonly recipient: SealRecipient,
  ) {
    this.opener = new SealOpener(
      sealKeyOf(config.SEAL_PRIVATE_KEY, config.NODE_ENV, 'SEAL_PRIVATE_KEY', 'privateKey', recipient),
    );
  }

  open(sealed: string, context: string): string {
    try {
      return this.opener.open(sealed, context);
    } catch {
      const variable = `${this.recipient.toUpperCase().replace('-', '_')}_SEAL_PUBLIC_KEY`;
      throw new AppError(
        ErrorCode.BadRequest,
        `The ${SEALED_WHAT[context] ?? context} could not be read: it was not sealed for the ${this.recipient} service (check the gateway's ${variable})`,
      );
    }
  }
}

/** The Nest provider of a recipient service's SealedInbox, from its validated config. */
export const sealedInboxProvider = (recipient: SealRecipient) => ({
  provide: SealedInbox,
  useFactory: (config: { SEAL_PRIVATE_KEY?: string; NODE_ENV: string }) => new SealedInbox(config, recipient),
  inject: [SERVICE_CONFIG],
});
