import { z } from 'zod';
import { faultsFromEnv, runStandIn } from '../kit';
import { startPlacesStandIn } from './places-standin';

/** The address autocomplete stand-in as the stack runs it (`places-standin`) on PLACES_STANDIN_PORT. */
runStandIn(
  'places-standin',
  z.object({ PLACES_STANDIN_PORT: z.coerce.number().int().min(0).max(65_535).default(3256) }),
  (env) => startPlacesStandIn({ port: env.PLACES_STANDIN_PORT, faults: faultsFromEnv() }),
  (url) =>
    `address autocomplete stand-in on ${url}: curl -X POST ${url}/v1/places:autocomplete -H 'X-Goog-Api-Key: any' -d '{"input":"190 St Georges","includedRegionCodes":["au"]}'`,
);
