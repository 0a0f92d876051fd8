import { defineServiceContract } from '../common/contract';
import { reportsRoutes } from './routes';

export * from './routes';

/**
 * The reports service's side of the protocol: its request topics (`reports.<verb-noun>`, request and
 * reply schemas), its events (`<entity>.<past-tense>`) and its REST routes (routes.ts). The
 * `reports.ping` request comes with every contract. Put message schemas beside this file (messages.ts,
 * events.ts, rest.ts).
 */
export const reportsContract = defineServiceContract({
  service: 'reports',
  routes: reportsRoutes,
  requests: {},
  events: {},
});
