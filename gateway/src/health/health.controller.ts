import { GatewayHealthDto, pingTopicOf } from '@irp/proto';
import { metricsRegistry, serviceManifest } from '@irp/platform';
import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/decorators';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';

@ApiTags('operations')
@Controller()
@Public()
export class HealthController {
  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Pings every service of services/manifest.json through Kafka (its `<service>.ping`, answered by the
   * platform); 503 when any is down, so a monitor sees which.
   */
  @Get('health')
  @ApiOperation({ summary: 'Each service pinged through Kafka: up or down' })
  async health(@Res() res: Response) {
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
    res.status(body.status === 'ok' ? 200 : 503).json(body);
  }

  /** Liveness of the gateway process alone. */
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
