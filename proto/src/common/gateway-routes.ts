import { z } from 'zod';
import { GatewayHealthSchema } from './rest';
import { access, defineRoutes } from './routes';

/** The gateway's own operational routes (no service owns them). */
export const gatewayRoutes = defineRoutes('gateway', {
  health: {
    method: 'GET',
    path: '/health',
    access: access.public('for monitors: says only which services answer'),
    summary: 'Each service pinged through Kafka: up or down (503 when any is down)',
    response: GatewayHealthSchema,
  },
  live: {
    method: 'GET',
    path: '/health/live',
    access: access.public('for the orchestrator: says only that the process runs'),
    summary: 'Liveness of the gateway process alone',
    response: z.object({ status: z.literal('ok') }),
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    access: access.public('for the metrics scraper: counters and timings, no data of any client'),
    summary: 'Prometheus metrics of the gateway',
    response: z.string(),
    produces: { mediaType: 'text/plain', description: 'Prometheus text exposition format' },
  },
});
