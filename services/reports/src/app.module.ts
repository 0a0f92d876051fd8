import { defineService } from '@irp/platform';
import { CreateReports1795830322350 } from './database/migrations/1795830322350-CreateReports';

/**
 * The reports service. Boot, ping, health, metrics and the outbox come from the platform.
 * Stocks it needs: `const stockProjection = stockProjectionRole(YourStockProjection)`, its handlers and
 * providers in the role that keeps it; a vendor: a `VendorHttpClient`; its stand-in: `standIns` in
 * services/manifest.json (docs/adding-a-service.md, "Invoicing, a walk-through").
 */
export const reportsService = defineService({
  name: 'reports',
  database: { entities: [], migrations: [CreateReports1795830322350] },
  providers: [],
  roles: { api: { handlers: [] } },
});
