import { serviceManifest } from '@irp/platform';
import type { Response } from 'express';
import { GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import { HealthController } from './health.controller';

/** A services client whose pings answer after `ms[service]` (never when undefined: a timeout at `timeoutMs`). */
function servicesAnsweringAfter(ms: Record<string, number | undefined>) {
  return {
    request: (topic: string, _payload: unknown, timeoutMs: number) =>
      new Promise((resolve, reject) => {
        const service = serviceManifest().find((s) => topic.startsWith(`${s.name}.`))!.name;
        const after = ms[service];
        if (after === undefined)
          setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        else setTimeout(() => resolve({}), after);
      }),
  } as unknown as ServicesClient;
}

/**
 * /health's answer with the pings answering as `ms` says, on jest's clock (Date.now included): the latencies
 * are exactly those given, however busy the machine running the test is.
 */
async function healthOf(ms: Record<string, number | undefined>) {
  const config = { HEALTH_TIMEOUT_MS: 30, HEALTH_DOWN_TIMEOUT_MS: 300 } as GatewayConfig;
  const controller = new HealthController(servicesAnsweringAfter(ms), config);
  let status = 0;
  const res = { status: (s: number) => (status = s) } as unknown as Response;
  jest.useFakeTimers();
  try {
    const answer = controller.health(res);
    await jest.advanceTimersByTimeAsync(config.HEALTH_DOWN_TIMEOUT_MS);
    const body = await answer;
    return { status, body };
  } finally {
    jest.useRealTimers();
  }
}

describe('GET /health: slow is not down', () => {
  const names = serviceManifest().map((s) => s.name);
  const every = (ms: number | undefined) => Object.fromEntries(names.map((n) => [n, ms]));

  it('is 200 and every service up when each answers within HEALTH_TIMEOUT_MS', async () => {
    const { status, body } = await healthOf(every(0));
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    for (const n of names) expect(body.services[n].status).toBe('up');
  });

  it('is still 200 when a service answers after HEALTH_TIMEOUT_MS: that one is slow, with its latency', async () => {
    const { status, body } = await healthOf({ ...every(0), [names[0]]: 120 });
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.services[names[0]]).toEqual({ status: 'slow', latencyMs: 120 });
  });

  it('is 503 when a service gives no answer within HEALTH_DOWN_TIMEOUT_MS: that one is down, with why', async () => {
    const { status, body } = await healthOf({ ...every(0), [names[1]]: undefined });
    expect(status).toBe(503);
    expect(body.status).toBe('degraded');
    expect(body.services[names[1]]).toEqual({ status: 'down', error: 'no answer within 300 ms' });
    expect(body.services[names[0]].status).toBe('up');
  });
});
