import { z } from 'zod';
import { faultsFromEnv, runStandIn } from '../kit';
import { DEMO_ACCOUNTING_CLIENT, startAccountingStandIn } from './accounting-standin';

/**
 * The accounting stand-in as the stack runs it (`accounting-standin`): the Xero-type token endpoint and
 * Accounting API on ACCOUNTING_STANDIN_PORT with the demo organisation dated from today (or
 * ACCOUNTING_STANDIN_TODAY); the other variables change the credentials, token lifetime and limits.
 */
const envSchema = z.object({
  ACCOUNTING_STANDIN_PORT: z.coerce.number().int().min(0).max(65_535).default(3255),
  /** YYYY-MM-DD: the day the demo data counts back from (default today, taken again at each reset). */
  ACCOUNTING_STANDIN_TODAY: z
    .string()
    .regex(/^\d{4}-\d\d-\d\d$/, 'must be YYYY-MM-DD')
    .optional(),
  /** `false`: an organisation without contacts or invoices. */
  ACCOUNTING_STANDIN_DEMO: z.enum(['true', 'false']).default('true'),
  ACCOUNTING_STANDIN_CLIENT_ID: z.string().min(1).default(DEMO_ACCOUNTING_CLIENT.clientId),
  ACCOUNTING_STANDIN_CLIENT_SECRET: z.string().min(1).default(DEMO_ACCOUNTING_CLIENT.clientSecret),
  ACCOUNTING_STANDIN_TENANT_ID: z.string().uuid().default(DEMO_ACCOUNTING_CLIENT.tenantId),
  ACCOUNTING_STANDIN_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** Limits per tenant (Xero's by default); a benchmark may raise them. */
  ACCOUNTING_STANDIN_CONCURRENT_LIMIT: z.coerce.number().int().min(1).default(5),
  ACCOUNTING_STANDIN_MINUTE_LIMIT: z.coerce.number().int().min(1).default(60),
  ACCOUNTING_STANDIN_DAY_LIMIT: z.coerce.number().int().min(1).default(5000),
});

runStandIn(
  'accounting-standin',
  envSchema,
  (env) =>
    startAccountingStandIn({
      port: env.ACCOUNTING_STANDIN_PORT,
      today: env.ACCOUNTING_STANDIN_TODAY,
      demo: env.ACCOUNTING_STANDIN_DEMO === 'true',
      client: {
        clientId: env.ACCOUNTING_STANDIN_CLIENT_ID,
        clientSecret: env.ACCOUNTING_STANDIN_CLIENT_SECRET,
        tenantId: env.ACCOUNTING_STANDIN_TENANT_ID,
      },
      tokenTtlSeconds: env.ACCOUNTING_STANDIN_TOKEN_TTL_SECONDS,
      limits: {
        concurrent: env.ACCOUNTING_STANDIN_CONCURRENT_LIMIT,
        perMinute: env.ACCOUNTING_STANDIN_MINUTE_LIMIT,
        perDay: env.ACCOUNTING_STANDIN_DAY_LIMIT,
      },
      faults: faultsFromEnv(),
    }),
  (url, env) =>
    `accounting stand-in on ${url} (API ${url}/api.xro/2.0, token ${url}/connect/token, today ${env.ACCOUNTING_STANDIN_TODAY ?? 'the current date'}); seed benchmark invoices with: curl -X POST ${url}/standin/invoices -H 'content-type: application/json' -d '{"count":1000}'`,
);
