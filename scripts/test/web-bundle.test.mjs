// The web app's bundle carries no zod (web/README.md): proto's schema modules, its route table among them,
// reach the browser only as types; and Highcharts loads with the report page only. Looks at which modules
// went into each chunk and at the code itself: of the build `make test` has just made (web/dist, with the
// record web/scripts/chunk-modules.mjs writes), or, when a source is newer than that build, of the app built
// as `npm run build -w web` does, in memory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { CHUNK_MODULES_FILE } from '../../web/scripts/chunk-modules.mjs';
import { isNewerThan } from '../newest-mtime.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(ROOT, 'web');
const DIST = path.join(WEB, 'dist');

/** What the web build is made from: a change to any of them makes web/dist stale. */
const BUILD_INPUTS = [
  path.join(WEB, 'src'),
  path.join(ROOT, 'proto', 'src'),
  path.join(WEB, 'index.html'),
  path.join(WEB, 'vite.config.ts'),
  path.join(WEB, 'package.json'),
  path.join(WEB, 'scripts', 'chunk-modules.mjs'),
  path.join(ROOT, 'package-lock.json'),
];

/** web/dist's chunks as the build recorded them, or undefined when there is none or a source is newer. */
function chunksOfDist() {
  const record = path.join(DIST, CHUNK_MODULES_FILE);
  if (!isNewerThan(record, BUILD_INPUTS)) return undefined;
  const { chunks } = JSON.parse(fs.readFileSync(record, 'utf8'));
  return chunks.map((chunk) => ({
    ...chunk,
    type: 'chunk',
    code: fs.readFileSync(path.join(DIST, chunk.fileName), 'utf8'),
    modules: Object.fromEntries(
      chunk.modules.map((id) => [
        id.startsWith('\0') ? `\0${path.join(WEB, id.slice(1))}` : path.join(WEB, id),
        {},
      ]),
    ),
  }));
}

/** The app built as `npm run build -w web` does, in memory: its chunks. */
async function chunksOfMemoryBuild() {
  const result = await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, sourcemap: false },
  });
  return (Array.isArray(result) ? result : [result])
    .flatMap((r) => r.output)
    .filter((o) => o.type === 'chunk');
}

/** The app's chunks, once for every test here: web/dist's when it is current, else a build in memory. */
let built;
function chunksOfBuild() {
  built ??= (async () => chunksOfDist() ?? chunksOfMemoryBuild())();
  return built;
}

test('the web bundle has no zod module and no zod code, and bundles proto only through zod-free modules', async () => {
  const chunks = await chunksOfBuild();
  assert.ok(chunks.length > 1, 'the build gave its chunks');
  const modules = chunks.flatMap((chunk) => Object.keys(chunk.modules)).map((id) => id.replaceAll('\\', '/'));

  // What the app does bundle of proto (a value import: fillPath of the table's zod-free module) shows the
  // module list is the real one.
  assert.ok(
    modules.some((id) => id.endsWith('/proto/src/common/routes.ts')),
    'proto common/routes.ts',
  );
  assert.deepEqual(
    modules.filter((id) => /\/node_modules\/zod\//.test(id)),
    [],
    'zod modules in the bundle',
  );
  // Every proto module that imports zod at run time (its schemas, the route table) is types only on the web.
  const zodImport = /^import\s+(?!type\b)[^;]*\sfrom\s+'zod';/m;
  assert.deepEqual(
    modules.filter((id) => id.includes('/proto/src/') && zodImport.test(fs.readFileSync(id, 'utf8'))),
    [],
    'proto modules with zod in the bundle',
  );
  for (const chunk of chunks) {
    assert.doesNotMatch(chunk.code, /ZodError|ZodObject|ZodType/, `zod code in ${chunk.fileName}`);
  }
});

test('Highcharts is bundled for the report page only: in no chunk the app loads at start', async () => {
  const chunks = new Map((await chunksOfBuild()).map((chunk) => [chunk.fileName, chunk]));
  const hasHighcharts = (chunk) =>
    Object.keys(chunk.modules).some((id) => /\/node_modules\/highcharts\//.test(id));

  // The entry and every chunk it imports statically, i.e. what loads before any lazy screen.
  const atStart = new Set();
  const visit = (fileName) => {
    if (atStart.has(fileName)) return;
    atStart.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);

  assert.ok(atStart.size > 0, 'the build has an entry');
  assert.deepEqual(
    [...atStart].filter((fileName) => hasHighcharts(chunks.get(fileName))),
    [],
    'chunks loaded at start with Highcharts in them',
  );
  const lazy = [...chunks.values()].filter(hasHighcharts);
  assert.ok(lazy.length > 0, 'Highcharts is in the build (the report page)');
  // The report page's chunk reaches it.
  const reportPage = [...chunks.values()].find((chunk) =>
    Object.keys(chunk.modules).some((id) => id.endsWith('/features/reports/routes/ReportRoute.tsx')),
  );
  assert.ok(reportPage, 'the report page has a chunk');
  assert.ok(
    reportPage.imports.some((fileName) => hasHighcharts(chunks.get(fileName))) || hasHighcharts(reportPage),
    'the report page chunk loads Highcharts',
  );
});
