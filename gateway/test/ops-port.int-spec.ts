import { INestApplication } from '@nestjs/common';
import { loadTestEnv } from '@irp/platform/testing';
import request from 'supertest';
import { OpsListener } from '../src/health/ops-listener';
import { startTestGateway } from './gateway-harness';

jest.setTimeout(300_000);

/**
 * Issue 18: /metrics and the services' /health were served to anyone on the public port, and the API docs
 * could not be turned off. With OPS_PORT they answer on the operations listener only (404 on the public
 * port; /health/live stays public for load balancers); API_DOCS=false removes /api/docs. No service runs
 * here: /health answers 503 naming them down, which is all this test needs of it.
 */
describe('the operations listener (OPS_PORT) and API_DOCS', () => {
  let gateway: INestApplication;
  let publicHttp: ReturnType<typeof request>;
  let opsHttp: ReturnType<typeof request>;

  beforeAll(async () => {
    loadTestEnv();
    ({ gateway, http: publicHttp } = await startTestGateway({
      OPS_PORT: '0',
      API_DOCS: 'false',
      HEALTH_TIMEOUT_MS: '300',
      HEALTH_DOWN_TIMEOUT_MS: '1000',
    }));
    opsHttp = request(`http://127.0.0.1:${gateway.get(OpsListener).port}`);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it.each(['/health', '/health/', '/metrics'])('answers %s 404 on the public port', async (path) => {
    const res = await publicHttp.get(path);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(res.text).not.toContain('irp_');
    expect(res.text).not.toContain('services');
  });

  it('keeps /health/live public', async () => {
    const res = await publicHttp.get('/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('serves /health and /metrics on the operations port', async () => {
    const health = await opsHttp.get('/health');
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('degraded');
    expect(Object.keys(health.body.services).length).toBeGreaterThan(0);
    const metrics = await opsHttp.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('irp_http_request_duration_seconds');
  });

  it.each(['/api/docs', '/api/docs-json'])('serves no %s with API_DOCS=false', async (path) => {
    expect((await publicHttp.get(path)).status).toBe(404);
    expect((await opsHttp.get(path)).status).toBe(404);
  });

  it('closes the operations port with the gateway', async () => {
    const { gateway: other } = await startTestGateway({ OPS_PORT: '0' });
    const port = other.get(OpsListener).port;
    expect((await request(`http://127.0.0.1:${port}`).get('/health/live')).status).toBe(200);
    await other.close();
    await expect(request(`http://127.0.0.1:${port}`).get('/health/live')).rejects.toThrow(/ECONNREFUSED/);
  });
});
