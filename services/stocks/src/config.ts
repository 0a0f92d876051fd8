import { baseConfigSchema, databaseConfigSchema, loadConfig } from '@irp/platform';
import { z } from 'zod';

export const stocksConfigSchema = baseConfigSchema.merge(databaseConfigSchema).extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3102),
  HOST: z.string().default('127.0.0.1'),
});
export type StocksConfig = z.infer<typeof stocksConfigSchema>;

export const STOCKS_SCHEMA = 'stocks';

export const loadStocksConfig = (env: NodeJS.ProcessEnv = process.env): StocksConfig =>
  loadConfig(stocksConfigSchema, env);
