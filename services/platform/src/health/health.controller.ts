import { Controller, Get, Header, Inject, Optional, Res } from '@nestjs/common';
import type { Response } from 'express';
import { metricsRegistry } from '../metrics';
import { HEALTH_CHECKS, HEALTH_INFO, HealthCheck, HealthInfo } from './health-checks';

/**
 * `/health` (each check up or down; 503 when any is down: readiness), `/health/live` (the process answers:
 * liveness, which a database or broker outage must not fail, or every pod would restart at once) and
 * `/metrics` (Prometheus text).
 */
@Controller()
export class HealthController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    @Optional() @Inject(HEALTH_INFO) private readonly info?: HealthInfo,
  ) {}

  @Get('health')
  async health(@Res() res: Response) {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            c.check(),
            new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), 2000))),
          ]);
          return [c.name, { status: 'up' }] as const;
        } catch (err) {
          return [
            c.name,
            { status: 'down', error: err instanceof Error ? err.message : String(err) },
          ] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const up = results.every(([, r]) => r.status === 'up');
    res.status(up ? 200 : 503).json({
      status: up ? 'ok' : 'error',
      service: this.info?.service ?? process.env.SERVICE_NAME,
      instance: this.info?.instance,
      roles: this.info?.roles,
      checks: Object.fromEntries(results),
    });
  }

  @Get('health/live')
  live() {
    return {
      status: 'ok',
      service: this.info?.service ?? process.env.SERVICE_NAME,
      instance: this.info?.instance,
    };
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}
