interface ServiceWorkerHost {
  serviceWorker?: Pick<ServiceWorkerContainer, 'getRegistrations'>;
}

/**
 * An earlier version of the portal registered a service worker; it would keep serving stale assets,
 * so every start unregisters whatever is registered.
 */
export async function unregisterServiceWorkers(host: ServiceWorkerHost = navigator): Promise<void> {
  const container = host.serviceWorker;
  if (!container) return;
  try {
    const registrations = await container.getRegistrations();
    await Promise.all(registrations.map((registration) => registration.unregister()));
  } catch {
    // Not allowed here (e.g. an insecure context); there is nothing to clean up then.
  }
}
