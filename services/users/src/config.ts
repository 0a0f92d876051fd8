import { baseConfigSchema, databaseConfigSchema, loadConfig } from '@irp/platform';
import { z } from 'zod';

export const usersConfigSchema = baseConfigSchema.merge(databaseConfigSchema).extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3101),
  HOST: z.string().default('127.0.0.1'),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  REFRESH_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
});
export type UsersConfig = z.infer<typeof usersConfigSchema>;

export const USERS_CONFIG = Symbol('USERS_CONFIG');
export const USERS_SCHEMA = 'users';

export const loadUsersConfig = (env: NodeJS.ProcessEnv = process.env): UsersConfig =>
  loadConfig(usersConfigSchema, env);
