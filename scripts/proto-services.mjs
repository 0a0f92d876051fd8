#!/usr/bin/env node
// Writes proto/src/services.generated.ts from services/manifest.json: the import of each service's contract
// (proto/src/<name>/index.ts exports `<camelName>Contract`) and the list proto's index assembles the topic
// catalogue from. It is generated, not committed, so adding a service never edits proto's index: npm's
// postinstall, every build (scripts/manifest.mjs build) and `make lint` write it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// The CommonJS reader, not manifest.mjs: that one imports this module.
const { loadManifest, ROOT } = createRequire(import.meta.url)('./manifest.cjs');

export const SERVICES_MODULE = path.join(ROOT, 'proto', 'src', 'services.generated.ts');

const camel = (name) => name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

/** The module's text for a manifest. */
export function servicesModule(manifest) {
  const services = manifest.services.map((s) => ({ name: s.name, contract: `${camel(s.name)}Contract` }));
  for (const s of services) {
    if (!fs.existsSync(path.join(ROOT, 'proto', 'src', s.name, 'index.ts')))
      throw new Error(
        `services/manifest.json lists ${s.name}, but proto/src/${s.name}/index.ts (its contract) is missing`,
      );
  }
  return [
    '// Generated from services/manifest.json by scripts/proto-services.mjs; not committed, do not edit.',
    ...services.map((s) => `import { ${s.contract} } from './${s.name}/index';`),
    '',
    ...services.map((s) => `export * from './${s.name}/index';`),
    '',
    '/** The contract of every service of services/manifest.json, in its order. */',
    '// prettier-ignore',
    `export const SERVICE_CONTRACTS = [${services.map((s) => s.contract).join(', ')}] as const;`,
    '',
  ].join('\n');
}

/** Writes the module when its text changed (so tsc's incremental build is not disturbed for nothing). */
export function writeServicesModule(manifest = loadManifest()) {
  const text = servicesModule(manifest);
  const old = fs.existsSync(SERVICES_MODULE) ? fs.readFileSync(SERVICES_MODULE, 'utf8') : undefined;
  if (old !== text) fs.writeFileSync(SERVICES_MODULE, text);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    writeServicesModule();
  } catch (err) {
    console.error(`[proto-services] ${err.message}`);
    process.exit(1);
  }
}
