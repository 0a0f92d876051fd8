import { defineServiceContract } from '../common/contract';
import { invoicingRoutes } from './routes';

export * from './routes';

/**
 * The invoicing service's side of the protocol: its request topics (`invoicing.<verb-noun>`, request and
 * reply schemas), its events (`<entity>.<past-tense>`) and its REST routes (routes.ts). The
 * `invoicing.ping` request comes with every contract. Put message schemas beside this file (messages.ts,
 * events.ts, rest.ts).
 */
export const invoicingContract = defineServiceContract({
  service: 'invoicing',
  routes: invoicingRoutes,
  requests: {},
  events: {},
});
