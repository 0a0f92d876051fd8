#!/usr/bin/env node
// `make bench`: runs every benchmark in bench/ against a stack of its own (own broker on port 29092,
// INFRA_DIR .local/bench) and writes bench/results/*.json. Results and how to read them: bench/README.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.INFRA_DIR ??= '.local/bench';
process.env.KAFKA_PORT ??= '29092';
process.env.KAFKA_CONTROLLER_PORT ??= '29093';
process.env.GATEWAY_PORT ??= '3600';
// Each service's health port is its manifest port + 400 (3101 -> 3501 ...), beside make up and make test.
process.env.HEALTH_PORT_OFFSET ??= '400';
process.env.LOG_LEVEL ??= 'warn';

const benches = fs
  .readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
const only = process.argv.slice(2);
let failed = 0;
for (const file of benches) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  console.log(`\n[bench] ${file}`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench', file)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
