import { GatewayHealthDto, pingTopicOf, routes } from '@irp/proto';
import { metricsRegistry, serviceManifest } from '@irp/platform';
import { Controller, Header, Inject, Res } from '@nestjs/common';
import { Route } from '../routing/route';
import type { Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';

@Controller()
export class HealthController {
  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Pings every service of services/manifest.json through Kafka (its `<service>.ping`, answered by the
   * platform); 503 when any is down, so a monitor sees which.
   */
  @Route(routes.gateway.health)
  async health(@Res({ passthrough: true }) res: Response): Promise<GatewayHealthDto> {
    const entries = await Promise.all(
      serviceManifest().map(async ({ name }) => {
        const started = Date.now();
        try {
          const ping = pingTopicOf(name);
          if (!ping) throw new Error(`proto has no contract for ${name}`);
          await this.services.request(ping, {}, this.config.HEALTH_TIMEOUT_MS);
          return [name, { status: 'up' as const, latencyMs: Date.now() - started }] as const;
        } catch (err) {
          return [
            name,
            { status: 'down' as const, error: err instanceof Error ? err.message : String(err) },
          ] as const;
        }
      }),
    );
    const body: GatewayHealthDto = {
      status: entries.every(([, s]) => s.status === 'up') ? 'ok' : 'degraded',
      services: Object.fromEntries(entries),
    };
    res.status(body.status === 'ok' ? 200 : 503);
    return body;
  }

  /** Liveness of the gateway process alone. */
  @Route(routes.gateway.live)
  live() {
    return { status: 'ok' as const };
  }

  @Route(routes.gateway.metrics)
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
