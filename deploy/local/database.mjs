// The database bootstrap (docs/adr/0011-a-database-role-per-service.md): each service's login role and the
// schema it owns. One implementation, the platform's (services/platform/src/database-bootstrap.ts), loaded
// from its build: `make up`, the tests and the Kubernetes `database` Job (`node deploy/local/infra.mjs
// database`, in the gateway image) all run it.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './shared.mjs';

const BUILT = path.join(ROOT, 'services', 'platform', 'dist', 'database-bootstrap.js');

function platform() {
  if (!fs.existsSync(BUILT))
    throw new Error(`${path.relative(ROOT, BUILT)} is missing: build the platform first (make build)`);
  return createRequire(import.meta.url)(BUILT);
}

/**
 * Every tenant's role and schema in the database of `adminUrl` (a local server that trusts 127.0.0.1):
 * returns each tenant's DATABASE_URL by name (the manifest's services, and `gateway`).
 */
export function bootstrapLocalDatabase(adminUrl) {
  return platform().bootstrapLocalDatabase(adminUrl);
}

/** A deployment's run: DATABASE_ADMIN_URL and each tenant's DATABASE_URL_<SCHEMA> from `env`. */
export function bootstrapDatabaseFromEnv(env = process.env) {
  return platform().bootstrapDatabaseFromEnv(env);
}
