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
   * platform): `up` within HEALTH_TIMEOUT_MS; `slow` when it answers later, or has not answered yet but
   * answered another request within HEALTH_ALIVE_MS (busy, not gone: no need to wait longer); `down` when
   * neither within HEALTH_DOWN_TIMEOUT_MS. 503 only when one is down, so a monitor sees which.
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
    const {
      HEALTH_TIMEOUT_MS: slowAfter,
      HEALTH_DOWN_TIMEOUT_MS: downAfter,
      HEALTH_ALIVE_MS: alive,
    } = this.config;
    const topic = pingTopicOf(name);
    if (!topic) return { status: 'down', error: `proto has no contract for ${name}` };
    const answer = this.services.request(topic, {}, Math.max(downAfter, slowAfter)).then(
      () => ({ status: 'up' as const, latencyMs: Date.now() - started }),
      (err: unknown) => ({
        status: 'down' as const,
        error: err instanceof Error ? err.message : String(err),
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), slowAfter)));
    const first = await Promise.race([answer, slow]).finally(() => clearTimeout(timer));
    if (first !== 'slow') return first;
    const since = this.services.sinceAnswered(name);
    if (since !== undefined && since <= alive)
      return {
        status: 'slow',
        error: `no answer to its ping within ${slowAfter} ms; answered ${Math.round(since)} ms ago`,
      };
    const late = await answer;
    return late.status === 'up' ? { status: 'slow', latencyMs: late.latencyMs } : late;
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
