import { createLogger } from '@irp/platform';
import { z } from 'zod';
import { startProvidersStandIn } from './providers-standin';

const log = createLogger('providers-standin');

/**
 * The email-marketing providers' stand-in as the stack runs it (`email-providers`): both APIs on
 * PROVIDERS_STANDIN_PORT with the demo lists; sent campaigns are mailed to the SMTP server of SMTP_URL
 * (the mail inbox of `make up`).
 */
const env = z
  .object({
    PROVIDERS_STANDIN_PORT: z.coerce.number().int().min(0).max(65_535).default(3252),
    SMTP_URL: z.string().default('smtp://127.0.0.1:3254'),
  })
  .parse(process.env);

const smtp = new URL(env.SMTP_URL);
startProvidersStandIn({
  port: env.PROVIDERS_STANDIN_PORT,
  smtp: { host: smtp.hostname, port: Number(smtp.port || 25) },
}).then(
  (standIn) => {
    log.info({ url: standIn.url, smtp: env.SMTP_URL }, 'email-marketing providers stand-in listening');
    const stop = () => void standIn.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  },
  (err: unknown) => {
    log.error({ err }, 'providers stand-in failed to start');
    process.exit(1);
  },
);
