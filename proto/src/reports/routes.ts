import { defineRoutes } from '../common/routes';

/**
 * The reports service's REST routes: one entry per route the gateway serves for it (method, the spec's
 * path, the access rule built with `access` from '../common/routes', the request and response schemas).
 * The gateway binds each handler with `@Route(routes.reports.<name>)`; see docs/adding-a-service.md.
 */
export const reportsRoutes = defineRoutes('reports', {});
