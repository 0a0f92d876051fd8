import { createLogger } from '@irp/platform';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { STAND_IN_MODES, startAsxStandIn } from './asx-standin';

const log = createLogger('asx-standin');

// The stand-in is started by `make up` (services/manifest.json's standIns) with ASX_STANDIN_PORT set; the
// other variables let a person change what it seeds and how its documents answer.
const envSchema = z.object({
  ASX_STANDIN_PORT: z.coerce.number().int().min(0).max(65_535).default(3251),
  ASX_STANDIN_MODE: z.enum(STAND_IN_MODES).default('direct'),
  ASX_STANDIN_TICKERS: z
    .string()
    .default('BHP,CBA,CSL,PLS,WES,OZL,WOW')
    .transform((v) =>
      v
        .split(',')
        .map((t) => t.trim().toUpperCase())
        .filter(Boolean),
    ),
  /** Where the last published id is kept between runs (default: the OS temp folder, one file per port). */
  ASX_STANDIN_ID_FILE: z.string().min(1).optional(),
});

async function main(): Promise<void> {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    log.error(`${issue.path.join('.')}: ${issue.message}`);
    process.exit(1);
  }
  const env = parsed.data;
  const standIn = await startAsxStandIn({
    port: env.ASX_STANDIN_PORT,
    host: '127.0.0.1',
    mode: env.ASX_STANDIN_MODE,
    seedTickers: env.ASX_STANDIN_TICKERS,
    idFile: env.ASX_STANDIN_ID_FILE ?? join(tmpdir(), `irp-asx-standin-${env.ASX_STANDIN_PORT}.last-id`),
  });
  log.info(
    { url: standIn.url, mode: env.ASX_STANDIN_MODE, tickers: env.ASX_STANDIN_TICKERS },
    `ASX stand-in on ${standIn.url}; publish with: curl -X POST ${standIn.url}/standin/announcements -H 'content-type: application/json' -d '{"ticker":"BHP","headline":"Quarterly Activities Report","priceSensitive":true}'`,
  );
  const stop = () => {
    void standIn.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  log.error({ err: error }, 'the ASX stand-in could not start');
  process.exit(1);
});
