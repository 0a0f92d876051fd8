#!/usr/bin/env node
// `make bench`: runs every benchmark in bench/ against a stack of its own (own broker on port 29092,
// INFRA_DIR .local/bench) and writes bench/results/*.json. Results and how to read them: bench/README.md.
//
//   node bench/run.mjs [name ...] [--record]
//
// Ends with one table of every figure, its goal and met / not met, and fails when a bench died or a
// figure's ratio to its physical limit moved the wrong way by more than 25% from the one committed in
// bench/README.md's figures table (the regression guard). `--record` writes this run's figures into that
// table (the rows of benches that did not run are kept).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  committedRatios,
  figuresTable,
  README,
  readFigures,
  REGRESSION_TOLERANCE,
  regressions,
  withFiguresTable,
} from './figures.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.INFRA_DIR ??= '.local/bench';
process.env.KAFKA_PORT ??= '29092';
process.env.KAFKA_CONTROLLER_PORT ??= '29093';
process.env.GATEWAY_PORT ??= '3600';
// Each service's health port is its manifest port + 400 (3101 -> 3501 ...), beside make up and make test.
process.env.HEALTH_PORT_OFFSET ??= '400';
process.env.LOG_LEVEL ??= 'warn';
// The broker with its optimising compiler, as a long-running broker runs (deploy/local/kafka-files.mjs):
// the hop's cost on the broker is part of what the benches measure (raw round trip 1.12 -> 0.85 ms p50).
process.env.KAFKA_OPTIMISING_JIT ??= '1';

const args = process.argv.slice(2);
const record = args.includes('--record');
const only = args.filter((a) => !a.startsWith('--'));
const benches = fs
  .readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();

const figures = [];
const died = [];
for (const file of benches) {
  const name = file.replace(/\.bench\.mjs$/, '');
  console.log(`\n[bench] ${file}`);
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench', file)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  const own = readFigures(name, started);
  if (r.status !== 0 || !own)
    died.push(`${name} (${r.status !== 0 ? `exit ${r.status ?? r.signal}` : 'no figures written'})`);
  if (own) figures.push(...own);
}

const readme = fs.readFileSync(README, 'utf8');
const worse = regressions(figures, committedRatios(readme));
const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
console.log(`\n[bench] every figure (${at} UTC)\n\n${figuresTable(figures)}\n`);
const notMet = figures.filter((f) => f.met === false).length;
console.log(
  `[bench] ${figures.length} figures: ${figures.filter((f) => f.met).length} goals met, ${notMet} not met`,
);
for (const w of worse)
  console.log(
    `[bench] REGRESSION ${w.key}: ratio ${w.now}× against ${w.committed}× committed (${w.change}×, more than ${REGRESSION_TOLERANCE * 100}% worse)`,
  );
for (const d of died) console.log(`[bench] DIED ${d}`);
if (record && !figures.length) console.log('[bench] no figure to record: bench/README.md left as it was');
if (record && figures.length) {
  fs.writeFileSync(
    README,
    withFiguresTable(readme, figures, `Recorded by \`node bench/run.mjs --record\`, ${at} UTC.`),
  );
  console.log('[bench] recorded in bench/README.md');
}
process.exit(died.length || worse.length ? 1 : 0);
