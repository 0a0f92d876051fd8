import { z } from 'zod';
import { faultsFromEnv, runStandIn } from '../kit';
import { startProvidersStandIn } from './providers-standin';

/**
 * The email-marketing providers' stand-in as the stack runs it (`email-providers`): both APIs on
 * PROVIDERS_STANDIN_PORT with the demo lists; sent campaigns are mailed to the SMTP server of SMTP_URL
 * (the mail inbox of `make up`).
 */
const envSchema = z.object({
  PROVIDERS_STANDIN_PORT: z.coerce.number().int().min(0).max(65_535).default(3252),
  SMTP_URL: z.string().default('smtp://127.0.0.1:3254'),
});

runStandIn(
  'providers-standin',
  envSchema,
  (env) => {
    const smtp = new URL(env.SMTP_URL);
    return startProvidersStandIn({
      port: env.PROVIDERS_STANDIN_PORT,
      smtp: { host: smtp.hostname, port: Number(smtp.port || 25) },
      faults: faultsFromEnv(),
    });
  },
  (url, env) => `email-marketing providers stand-in on ${url}, mailing to ${env.SMTP_URL}`,
);
