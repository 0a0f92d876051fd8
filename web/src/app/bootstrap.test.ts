import { describe, expect, it, vi } from 'vitest';
import { unregisterServiceWorkers } from './bootstrap';

describe('unregisterServiceWorkers', () => {
  it('unregisters every registration', async () => {
    const unregister = vi.fn().mockResolvedValue(true);
    const registration = { unregister } as unknown as ServiceWorkerRegistration;
    await unregisterServiceWorkers({
      serviceWorker: { getRegistrations: () => Promise.resolve([registration, registration]) },
    });
    expect(unregister).toHaveBeenCalledTimes(2);
  });

  it('does nothing without service worker support', async () => {
    await expect(unregisterServiceWorkers({})).resolves.toBeUndefined();
  });

  it('swallows a refusal', async () => {
    await expect(
      unregisterServiceWorkers({
        serviceWorker: { getRegistrations: () => Promise.reject(new Error('SecurityError')) },
      }),
    ).resolves.toBeUndefined();
  });
});
