import { z } from 'zod';
import { faultsFromEnv, runStandIn } from '../kit';
import { DEMO_MARKET_API_KEY, startMarketStandIn } from './market-standin';

/** The market-data provider stand-in as the stack runs it (`market-standin`) on MARKET_STANDIN_PORT. */
runStandIn(
  'market-standin',
  z.object({
    MARKET_STANDIN_PORT: z.coerce.number().int().min(0).max(65_535).default(3257),
    MARKET_STANDIN_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
    MARKET_STANDIN_TRADES_SCALE: z.coerce.number().positive().default(1),
    MARKET_STANDIN_PUBLICATION_LAG_DAYS: z.coerce.number().int().min(1).max(20).default(3),
  }),
  (env) =>
    startMarketStandIn({
      port: env.MARKET_STANDIN_PORT,
      perMinute: env.MARKET_STANDIN_PER_MINUTE,
      tradesScale: env.MARKET_STANDIN_TRADES_SCALE,
      publicationLagDays: env.MARKET_STANDIN_PUBLICATION_LAG_DAYS,
      faults: faultsFromEnv(),
    }),
  (url) =>
    `market-data stand-in on ${url}: curl -H 'X-Api-Key: ${DEMO_MARKET_API_KEY}' '${url}/v1/quotes?codes=BHP,CSL'`,
);
