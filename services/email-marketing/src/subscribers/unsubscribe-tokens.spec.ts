import { loadConfig } from '@irp/platform';
import { z } from 'zod';
import { emailMarketingConfigSchema } from '../config';
import { DEV_UNSUBSCRIBE_LINK_SECRET, legacyTokenHash, UnsubscribeTokens } from './unsubscribe-tokens';

const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const OTHER = '9b2d7c1e-0a4b-4c8e-8f3a-1d2e3f4a5b6c';

describe('unsubscribe tokens', () => {
  const tokens = new UnsubscribeTokens('a-test-secret-of-thirty-two-chars-at-least');

  it('makes a 48-character URL-safe token that proves the subscriber it was made for', () => {
    const token = tokens.forSubscriber(ID);
    expect(token).toMatch(/^u1[A-Za-z0-9_-]{46}$/);
    expect(tokens.proofOf(token)).toEqual({ subscriberId: ID });
    expect(tokens.forSubscriber(ID.toUpperCase())).toBe(token);
    expect(tokens.forSubscriber(OTHER)).not.toBe(token);
  });

  it('proves nothing with a changed signature, a swapped id or another secret: those are legacy lookups', () => {
    const token = tokens.forSubscriber(ID);
    const other = tokens.forSubscriber(OTHER);
    const forged = [
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `${other.slice(0, 24)}${token.slice(24)}`,
      new UnsubscribeTokens('another-secret-of-thirty-two-characters!!').forSubscriber(ID),
    ];
    for (const wrong of forged) expect(tokens.proofOf(wrong)).toEqual({ legacyHash: legacyTokenHash(wrong) });
  });

  it('keeps a token of the earlier scheme as its sha256 only (hex, as the migration computes it)', () => {
    const legacy = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
    expect(tokens.proofOf(legacy)).toEqual({ legacyHash: legacyTokenHash(legacy) });
    expect(legacyTokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('UNSUBSCRIBE_LINK_SECRET', () => {
  const schema = emailMarketingConfigSchema.extend({ NODE_ENV: z.string() });
  it('production refuses the published development secret (the default); elsewhere it is used', () => {
    expect(() => loadConfig(schema, { NODE_ENV: 'production' })).toThrow(
      /UNSUBSCRIBE_LINK_SECRET: a development value published in this repository/,
    );
    expect(loadConfig(schema, { NODE_ENV: 'development' }).UNSUBSCRIBE_LINK_SECRET).toBe(
      DEV_UNSUBSCRIBE_LINK_SECRET,
    );
    expect(() => loadConfig(schema, { NODE_ENV: 'development', UNSUBSCRIBE_LINK_SECRET: 'short' })).toThrow(
      /UNSUBSCRIBE_LINK_SECRET/,
    );
  });
});
