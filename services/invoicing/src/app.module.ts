import { defineService } from '@irp/platform';
import { CreateInvoicing1795816586699 } from './database/migrations/1795816586699-CreateInvoicing';

/**
 * The invoicing service. Boot, ping, health, metrics and the outbox come from the platform.
 * Stocks it needs: `const stockProjection = stockProjectionRole(YourStockProjection)`, its handlers and
 * providers in the role that keeps it; a vendor: a `VendorHttpClient`; its stand-in: `standIns` in
 * services/manifest.json (docs/adding-a-service.md, "Invoicing, a walk-through").
 */
export const invoicingService = defineService({
  name: 'invoicing',
  database: { entities: [], migrations: [CreateInvoicing1795816586699] },
  providers: [],
  roles: { api: { handlers: [] } },
});
