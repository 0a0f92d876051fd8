import { z } from 'zod';
import { baseConfigSchema, ConfigError, databaseConfigSchema, loadConfig } from './config';

describe('loadConfig', () => {
  const schema = baseConfigSchema.merge(databaseConfigSchema);
  it('parses and defaults', () => {
    const c = loadConfig(schema, { KAFKA_BROKERS: 'h:1', DATABASE_URL: 'postgres://x@y/z' });
    expect(c.KAFKA_REQUEST_TIMEOUT_MS).toBe(4000);
    expect(c.NODE_ENV).toBe('development');
  });
  it('fails at boot listing every bad variable', () => {
    let error: unknown;
    try {
      loadConfig(schema.extend({ PORT: z.coerce.number().int() }), {
        DATABASE_URL: 'mysql://x',
        PORT: 'x',
        KAFKA_SESSION_TIMEOUT_MS: '10',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    expect(text).toContain('KAFKA_BROKERS');
    expect(text).toContain('DATABASE_URL: DATABASE_URL must be a postgres:// URL');
    expect(text).toContain('PORT');
    expect(text).toContain('KAFKA_SESSION_TIMEOUT_MS');
  });
});
