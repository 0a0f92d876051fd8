#!/usr/bin/env node
// The service manifest (services/manifest.json), read and checked once for every script that needs the list
// of services: the stack, the test runner, the build, the jest configs (through manifest.cjs), the compose
// generator and the scaffold.
//
//   node scripts/manifest.mjs workspaces   the server workspaces in build order, one per line
//   node scripts/manifest.mjs build        tsc -b over those workspaces (what `make build` runs);
//                                          --without-stand-ins for a production image (deploy/Dockerfile)
//   node scripts/manifest.mjs check        validates the manifest and exits non-zero naming each problem
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { writeServicesModule } from './proto-services.mjs';

const require = createRequire(import.meta.url);
const { ROOT, MANIFEST_FILE, loadManifest, serverWorkspaces } = require('./manifest.cjs');

export { ROOT, MANIFEST_FILE, loadManifest, serverWorkspaces };

/** A mistake in what a person typed (a service or role name): shown as its sentence, without a stack. */
export class UsageError extends Error {}

/** The manifest entry of one service, or an error that names the services there are. */
export function serviceEntry(name, manifest = loadManifest()) {
  const entry = manifest.services.find((s) => s.name === name);
  if (!entry)
    throw new UsageError(
      `no service named "${name}" in services/manifest.json (services: ${manifest.services.map((s) => s.name).join(', ')})`,
    );
  return entry;
}

/** The roles a process of `entry` runs: a comma list, each checked against the manifest. */
export function parseRoles(entry, text) {
  if (!text) return entry.roles;
  const roles = text
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = roles.filter((r) => !entry.roles.includes(r));
  if (unknown.length || roles.length === 0)
    throw new UsageError(
      `${entry.name} has no role ${unknown.join(', ') || '(none given)'}; its roles are ${entry.roles.join(', ')}`,
    );
  return roles;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command] = process.argv.slice(2);
  try {
    if (command === 'workspaces') {
      console.log(serverWorkspaces().join('\n'));
    } else if (command === 'build') {
      writeServicesModule();
      const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      // --without-stand-ins: a production image's build, which carries no stand-in (deploy/Dockerfile).
      const standIns = !process.argv.includes('--without-stand-ins');
      const r = spawnSync(process.execPath, [tsc, '-b', ...serverWorkspaces(undefined, { standIns })], {
        cwd: ROOT,
        stdio: 'inherit',
      });
      process.exit(r.status ?? 1);
    } else if (command === 'check') {
      const m = loadManifest();
      console.log(`${path.relative(ROOT, MANIFEST_FILE)}: ${m.services.length} services, all valid`);
    } else {
      console.error('usage: node scripts/manifest.mjs workspaces | build [--without-stand-ins] | check');
      process.exit(2);
    }
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
