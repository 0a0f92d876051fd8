#!/usr/bin/env node
// Writes web/src/api/routes.ts from proto's route table: the method and path of every route, as plain data.
// The web app calls routes through this mirror because the table itself holds zod schemas, which must stay
// out of its bundle (web/README.md); the mirror is typed with the table's types (web/src/api/route.ts), so
// the compiler refuses a mirror that misses, adds or changes a route. It is committed:
//   node scripts/web-routes.mjs           writes it (after a change of a proto routes.ts)
//   node scripts/web-routes.mjs --check   exits 1 when it differs from what the table gives (`make lint`)
// Both build proto first (tsc -b proto: nothing to do when proto/dist is up to date) and read proto/dist.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { isNewerThan } from './newest-mtime.mjs';
import { writeServicesModule } from './proto-services.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const WEB_ROUTES_FILE = path.join(ROOT, 'web', 'src', 'api', 'routes.ts');

export const HEADER = [
  "// Generated from proto's route table by scripts/web-routes.mjs; do not edit (`make lint` fails when stale).",
  '// The method and path of every REST route, zod-free for the bundle; typed by the table (WebRoutes), so a',
  '// missing, extra or changed route is a compile error. Call them with callRoute/routeHref (./route.ts).',
];

const quote = (value) => `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name) => (IDENTIFIER.test(name) ? name : quote(name));

/** The module's text for a route table (group -> name -> entry with method and path), prettier-formatted. */
export async function webRoutesModule(table) {
  const groups = Object.entries(table).map(([group, entries]) => {
    const lines = Object.entries(entries).map(([name, entry]) => {
      if (typeof entry?.method !== 'string' || typeof entry?.path !== 'string')
        throw new Error(`route ${group}.${name} has no method and path`);
      return `    ${key(name)}: { method: ${quote(entry.method)}, path: ${quote(entry.path)} },`;
    });
    return [`  ${key(group)}: {`, ...lines, '  },'].join('\n');
  });
  const text = [
    ...HEADER,
    "import type { WebRoutes } from './route';",
    '',
    'export const routes: WebRoutes = {',
    ...groups,
    '};',
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(WEB_ROUTES_FILE)) ?? {};
  return prettier.format(text, { ...options, filepath: WEB_ROUTES_FILE });
}

/** What proto/dist is built from, and tsc's record of that build (proto/tsconfig.json's tsBuildInfoFile). */
const PROTO_INPUTS = ['proto/src', 'proto/tsconfig.json', 'proto/package.json', 'tsconfig.base.json'].map(
  (p) => path.join(ROOT, p),
);
const PROTO_BUILD_INFO = path.join(ROOT, 'proto', 'dist', '.tsbuildinfo');

/** Builds proto (incremental: quick when proto/dist is current), so the table read is the source's. */
export function buildProto() {
  writeServicesModule();
  // tsc -b would find nothing to do, after a second of loading the compiler (deploy/k8s.mjs and the infra
  // suite's generators call this in every run).
  if (isNewerThan(PROTO_BUILD_INFO, PROTO_INPUTS)) return;
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'proto'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
}

/** The route table as proto/dist exports it. */
export function loadTable() {
  return require(path.join(ROOT, 'proto', 'dist')).routes;
}

/** Whether `file` holds exactly what the table gives; the expected text too. */
export async function checkFile(table, file = WEB_ROUTES_FILE) {
  const expected = await webRoutesModule(table);
  const actual = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  return { current: actual === expected, expected };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  // --file PATH: another file in its place (the tests check a copy, never the committed file).
  const fileAt = args.indexOf('--file');
  const file = fileAt >= 0 ? path.resolve(args[fileAt + 1] ?? '') : WEB_ROUTES_FILE;
  const shown = path.relative(ROOT, file);
  try {
    buildProto();
    const { current, expected } = await checkFile(loadTable(), file);
    if (args.includes('--check')) {
      if (!current) {
        console.error(
          `[web-routes] ${shown} does not match proto's route table: run node scripts/web-routes.mjs and commit it`,
        );
        process.exit(1);
      }
      console.log(`[web-routes] ${shown} matches proto's route table`);
    } else if (current) {
      console.log(`[web-routes] ${shown} is up to date`);
    } else {
      fs.writeFileSync(file, expected);
      console.log(`[web-routes] wrote ${shown}`);
    }
  } catch (err) {
    console.error(`[web-routes] ${err.message}`);
    process.exit(1);
  }
}
