import { HealthController } from './health.controller';

describe('platform HealthController', () => {
  const down = { name: 'database', check: () => Promise.reject(new Error('connection refused')) };
  const info = { service: 'stocks', instance: 'stocks-1', roles: ['api'] };

  it('is live while a dependency is down (a liveness probe must not restart every pod in an outage)', async () => {
    const controller = new HealthController([down], info);
    expect(controller.live()).toEqual({ status: 'ok', service: 'stocks', instance: 'stocks-1' });

    // Readiness still says down, with the reason.
    const res = { status: jest.fn().mockReturnThis(), json: jest.fn() };
    await controller.health(res as never);
    expect(res.status).toHaveBeenCalledWith(503);
    expect(res.json.mock.calls[0][0].checks.database).toEqual({
      status: 'down',
      error: 'connection refused',
    });
  });
});
