#!/usr/bin/env node
// `make lint`: every static check, each named, all run even when one fails, so one run shows every problem.
//   manifest    services/manifest.json is valid
//   web routes  web/src/api/routes.ts (the web app's mirror of proto's route table) is current
//   eslint      TypeScript, React and the Node scripts; no focused tests, no unexplained skips
//   boundaries  the import rules of docs/architecture.md (.dependency-cruiser.cjs)
//   test types  the server tests and the browser tests type-check like the code they test
// Exits non-zero when any check fails. `--json FILE` writes [{ name, ok }] for scripts/test.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeServicesModule } from './proto-services.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);

/** Where dependency-cruiser starts: every source and test folder (dist/ and node_modules are not followed). */
const CRUISED = [
  'proto/src',
  'services',
  'standins/src',
  'gateway/src',
  'gateway/test',
  'web/src',
  'scripts',
  'deploy',
  'e2e',
  'bench',
];

export const CHECKS = [
  { name: 'manifest', args: [path.join(ROOT, 'scripts', 'manifest.mjs'), 'check'] },
  { name: 'web routes', args: [path.join(ROOT, 'scripts', 'web-routes.mjs'), '--check'] },
  { name: 'eslint', args: [bin('eslint', 'bin/eslint.js'), '.', '--max-warnings=0'] },
  {
    name: 'boundaries',
    args: [
      bin('dependency-cruiser', 'bin/dependency-cruise.mjs'),
      ...CRUISED,
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err-long',
    ],
  },
  { name: 'server test types', args: [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.test.json'] },
  { name: 'browser test types', args: [bin('typescript', 'bin/tsc'), '-p', 'e2e/tsconfig.json'] },
];

function run(args) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    p.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function lint() {
  // proto's index imports the generated list of service contracts (scripts/proto-services.mjs).
  writeServicesModule();
  const results = [];
  for (const check of CHECKS) {
    const started = Date.now();
    const code = await run(check.args);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`[lint] ${check.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
    results.push({ name: check.name, ok: code === 0 });
  }
  return results;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const jsonAt = process.argv.indexOf('--json');
  const results = await lint();
  if (jsonAt > 0) fs.writeFileSync(process.argv[jsonAt + 1], JSON.stringify(results));
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  if (failed.length) console.log(`[lint] failed: ${failed.join(', ')}`);
  process.exit(failed.length ? 1 : 0);
}
