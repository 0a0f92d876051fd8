import { SEALED_PREFIX } from '@irp/proto';
import { ConfigError } from '../config';
import { redactSensitive } from '../dlq';
import {
  DEV_SEAL_KEYS,
  newSealKeyPair,
  newSessionToken,
  SealOpener,
  sealFor,
  sealKeyOf,
  tokenHash,
} from './sealed-box';

describe('the sealed box (secrets on the bus)', () => {
  const pair = newSealKeyPair();
  const opener = new SealOpener(pair.privateKey);

  it('opens for the private half only, in the same context, and a fresh ciphertext each time', () => {
    const sealed = sealFor(pair.publicKey, 'password', 'correct horse battery staple');
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sealed).not.toContain('correct horse');
    expect(sealFor(pair.publicKey, 'password', 'correct horse battery staple')).not.toBe(sealed);
    expect(opener.open(sealed, 'password')).toBe('correct horse battery staple');
    expect(opener.publicKey).toBe(pair.publicKey);
    expect(() => opener.open(sealed, 'provider-key')).toThrow();
    expect(() => new SealOpener(newSealKeyPair().privateKey).open(sealed, 'password')).toThrow();
    // One character before the last changed (the last may carry only padding bits), to another letter.
    const at = sealed.length - 2;
    const tampered = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(() => opener.open(tampered, 'password')).toThrow();
    expect(() => opener.open('correct horse', 'password')).toThrow(/not a sealed value/);
    // Up to the contract's longest secret (1000 characters, any script).
    const long = 'ü'.repeat(1000);
    expect(opener.open(sealFor(pair.publicKey, 'password', long), 'password')).toBe(long);
  });

  it('the development pairs match, and production refuses them or nothing', () => {
    for (const keys of Object.values(DEV_SEAL_KEYS))
      expect(new SealOpener(keys.privateKey).publicKey).toBe(keys.publicKey);
    expect(sealKeyOf(undefined, 'development', 'SEAL_PRIVATE_KEY', 'privateKey', 'users')).toBe(
      DEV_SEAL_KEYS.users.privateKey,
    );
    expect(() => sealKeyOf(undefined, 'production', 'SEAL_PRIVATE_KEY', 'privateKey', 'users')).toThrow(
      /SEAL_PRIVATE_KEY: must be set in production/,
    );
    expect(() =>
      sealKeyOf(DEV_SEAL_KEYS.users.publicKey, 'production', 'USERS_SEAL_PUBLIC_KEY', 'publicKey', 'users'),
    ).toThrow(ConfigError);
    expect(sealKeyOf(pair.publicKey, 'production', 'USERS_SEAL_PUBLIC_KEY', 'publicKey', 'users')).toBe(
      pair.publicKey,
    );
  });

  it('makes 256-bit URL-safe tokens and their SHA-256 as 64 hex digits', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSessionToken()).not.toBe(token);
    expect(tokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(token)).toBe(tokenHash(token));
  });
});

describe('a DLQ copy leaves secrets out', () => {
  it('redacts passwords, keys, tokens and secrets at any depth, naming each path', () => {
    const { value, paths } = redactSensitive({
      username: 'alice',
      password: 'p',
      settings: { apiKey: 'k', listId: 'l', nested: [{ clientSecret: 's' }] },
      sessionToken: 't',
      blank: { apiKey: '' },
    });
    expect(value).toEqual({
      username: 'alice',
      password: '[redacted]',
      settings: { apiKey: '[redacted]', listId: 'l', nested: [{ clientSecret: '[redacted]' }] },
      sessionToken: '[redacted]',
      blank: { apiKey: '' },
    });
    expect(paths).toEqual(['password', 'settings.apiKey', 'settings.nested[0].clientSecret', 'sessionToken']);
  });

  it('redacts JSON given as text or bytes, and leaves what is not JSON as it is', () => {
    const asText = redactSensitive(JSON.stringify({ newPassword: 'n' }));
    expect(JSON.parse(asText.value as string)).toEqual({ newPassword: '[redacted]' });
    const asBytes = redactSensitive(Buffer.from(JSON.stringify({ currentPassword: 'c' })));
    expect(asBytes.paths).toEqual(['currentPassword']);
    expect(redactSensitive('not json')).toEqual({ value: 'not json', paths: [] });
  });
});
