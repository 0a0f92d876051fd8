import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { faultsFromEnv, runStandIn } from '../kit';
import { STAND_IN_MODES, startAsxStandIn } from './asx-standin';

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

runStandIn(
  'asx-standin',
  envSchema,
  (env) =>
    startAsxStandIn({
      port: env.ASX_STANDIN_PORT,
      mode: env.ASX_STANDIN_MODE,
      seedTickers: env.ASX_STANDIN_TICKERS,
      idFile: env.ASX_STANDIN_ID_FILE ?? join(tmpdir(), `irp-asx-standin-${env.ASX_STANDIN_PORT}.last-id`),
      faults: faultsFromEnv(),
    }),
  (url, env) =>
    `ASX stand-in on ${url} (mode ${env.ASX_STANDIN_MODE}, tickers ${env.ASX_STANDIN_TICKERS.join(',')}); publish with: curl -X POST ${url}/standin/announcements -H 'content-type: application/json' -d '{"ticker":"BHP","headline":"Quarterly Activities Report","priceSensitive":true}'`,
);
