import { randomBytes } from 'node:crypto';
import { ConfigError } from '@irp/platform';
import { emailMarketingConfigSchema } from '../config';
import { parseSecretsKey, SecretBox, secretsKeyOf } from './secret-box';

describe('SecretBox (provider keys at rest)', () => {
  const key = randomBytes(32);

  it('seals with AES-256-GCM: not the plain value, a fresh IV each time, opened again', () => {
    const box = new SecretBox(key);
    const a = box.seal('demo-mailchimp-key-us1');
    const b = box.seal('demo-mailchimp-key-us1');
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('demo-mailchimp');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('demo-mailchimp-key-us1');
    expect(box.seal('')).toBe('');
    expect(box.open('')).toBe('');
  });

  it('refuses to open with another key, or a value altered', () => {
    const sealed = new SecretBox(key).seal('secret');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    const altered = `v1:${raw.toString('base64url')}`;
    expect(() => new SecretBox(key).open(altered)).toThrow();
    expect(() => new SecretBox(key).open('plain-text-key')).toThrow('not a sealed value');
  });

  it('takes EMAIL_SECRETS_KEY as 64 hex digits or base64 of 32 bytes; refuses anything else at start', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    for (const bad of ['short', key.toString('hex').slice(2), randomBytes(16).toString('base64')]) {
      const parsed = emailMarketingConfigSchema.safeParse({ EMAIL_SECRETS_KEY: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/^EMAIL_SECRETS_KEY must be 32 bytes/);
    }
    expect(emailMarketingConfigSchema.safeParse({ EMAIL_SECRETS_KEY: key.toString('base64') }).success).toBe(
      true,
    );
  });

  it('production without a key stops with a clear message; elsewhere the development key is used', () => {
    expect(() => secretsKeyOf({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => secretsKeyOf({ NODE_ENV: 'production' })).toThrow(
      /EMAIL_SECRETS_KEY: must be set in production/,
    );
    expect(secretsKeyOf({ NODE_ENV: 'production', EMAIL_SECRETS_KEY: key.toString('hex') })).toEqual(key);
    expect(secretsKeyOf({ NODE_ENV: 'development' })).toHaveLength(32);
  });
});
