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
   * platform): `up` when it answers within HEALTH_TIMEOUT_MS, `slow` when it answers later (busy, not gone),
   * `down` when it has not answered within HEALTH_DOWN_TIMEOUT_MS. 503 only when one is down, so a monitor
   * sees which; a loaded machine makes services slow, and slow is not a 503.
   */
  @Route(routes.gateway.health)
  async health(@Res({ passthrough: true }) res: Response): Promise<GatewayHealthDto> {
    const entries = await Promise.all(
      serviceManifest().map(async ({ name }) => [name, await this.ping(name)] as const),
    );
    const body: GatewayHealthDto = {
      status: entries.some(([, s]) => s.status === 'down') ? 'degraded' : 'ok',
      services: Object.fromEntries(entries),
    };
    res.status(body.status === 'ok' ? 200 : 503);
    return body;
  }

  private async ping(name: string): Promise<GatewayHealthDto['services'][string]> {
    const started = Date.now();
    const topic = pingTopicOf(name);
    if (!topic) return { status: 'down', error: `proto has no contract for ${name}` };
    const { HEALTH_TIMEOUT_MS: slowAfter, HEALTH_DOWN_TIMEOUT_MS: downAfter } = this.config;
    try {
      await this.services.request(topic, {}, Math.max(slowAfter, downAfter));
      const latencyMs = Date.now() - started;
      return { status: latencyMs <= slowAfter ? 'up' : 'slow', latencyMs };
    } catch (err) {
      return { status: 'down', error: err instanceof Error ? err.message : String(err) };
    }
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
