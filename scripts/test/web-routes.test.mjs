// scripts/web-routes.mjs: the web app's zod-free mirror of proto's route table (web/src/api/routes.ts).
// Pins what it writes, that the committed mirror is current, that --check (run by `make lint`) fails on a
// stale one, and that the compiler refuses a mirror that misses, adds or changes a route.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  buildProto,
  checkFile,
  HEADER,
  loadTable,
  WEB_ROUTES_FILE,
  webRoutesModule,
} from '../web-routes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'web-routes.mjs');

let table;
before(() => {
  buildProto();
  table = loadTable();
});

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'web-routes-'));

test('the mirror is each group and route with its method and path, under the generated-file header', async () => {
  const text = await webRoutesModule({
    stocks: {
      save: { method: 'POST', path: '/api/admin/stocks', summary: 'not copied', access: { kind: 'public' } },
      get: { method: 'GET', path: '/api/stock/{combinedTicker}' },
    },
    gateway: { health: { method: 'GET', path: '/health' } },
  });
  assert.equal(
    text,
    [
      ...HEADER,
      "import type { WebRoutes } from './route';",
      '',
      'export const routes: WebRoutes = {',
      '  stocks: {',
      "    save: { method: 'POST', path: '/api/admin/stocks' },",
      "    get: { method: 'GET', path: '/api/stock/{combinedTicker}' },",
      '  },',
      '  gateway: {',
      "    health: { method: 'GET', path: '/health' },",
      '  },',
      '};',
      '',
    ].join('\n'),
  );
  assert.match(
    HEADER[0],
    /^\/\/ Generated from proto's route table by scripts\/web-routes\.mjs; do not edit/,
  );
});

test('an entry without a method and path is refused, naming it', async () => {
  await assert.rejects(
    webRoutesModule({ stocks: { odd: { path: '/x' } } }),
    /route stocks\.odd has no method/,
  );
});

test('the committed web/src/api/routes.ts is what the table gives, every route of it included', async () => {
  const { current, expected } = await checkFile(table);
  assert.ok(current, 'web/src/api/routes.ts is stale: run node scripts/web-routes.mjs');
  for (const [group, entries] of Object.entries(table)) {
    for (const [name, entry] of Object.entries(entries)) {
      assert.ok(
        expected.includes(`${name}: { method: '${entry.method}', path: '${entry.path}' }`) ||
          expected.includes(`method: '${entry.method}',\n      path: '${entry.path}',`),
        `${group}.${name} is in the mirror`,
      );
    }
  }
});

test('--check exits 1 on a stale mirror and 0 on a current one; without it the file is rewritten', () => {
  const dir = tempDir();
  const file = path.join(dir, 'routes.ts');
  const committed = fs.readFileSync(WEB_ROUTES_FILE, 'utf8');
  fs.writeFileSync(file, committed.replace("'/api/admin/getNotes'", "'/api/admin/notes'"));

  const stale = spawnSync(process.execPath, [SCRIPT, '--check', '--file', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(stale.status, 1);
  assert.match(stale.stderr, /does not match proto's route table: run node scripts\/web-routes\.mjs/);

  execFileSync(process.execPath, [SCRIPT, '--file', file], { cwd: ROOT, stdio: 'pipe' });
  assert.equal(fs.readFileSync(file, 'utf8'), committed);
  const current = spawnSync(process.execPath, [SCRIPT, '--check', '--file', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(current.status, 0, current.stderr);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the compiler refuses a mirror with a changed, missing or extra route (WebRoutes)', () => {
  const dir = tempDir();
  const committed = fs.readFileSync(WEB_ROUTES_FILE, 'utf8').replace("from './route'", "from '@/api/route'");
  const variants = {
    'current.ts': committed,
    'changed-path.ts': committed.replace("'/api/admin/getNotes'", "'/api/admin/notes'"),
    'changed-method.ts': committed.replace(
      "save: { method: 'POST', path: '/api/admin/stocks' }",
      "save: { method: 'GET', path: '/api/admin/stocks' }",
    ),
    'missing.ts': committed.replace("    referers: { method: 'GET', path: '/api/admin/referers' },\n", ''),
    'extra.ts': committed.replace(
      "    live: { method: 'GET', path: '/health/live' },",
      "    live: { method: 'GET', path: '/health/live' },\n    ready: { method: 'GET', path: '/health/ready' },",
    ),
  };
  for (const [name, text] of Object.entries(variants)) {
    if (name !== 'current.ts') assert.notEqual(text, committed, `${name} differs from the mirror`);
    fs.writeFileSync(path.join(dir, name), text);
  }
  // The web app's compiler options and paths (@/ and @irp/proto), over these files alone.
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: path.join(ROOT, 'web', 'tsconfig.json'),
      compilerOptions: { types: [], noEmit: true },
      include: [],
      files: Object.keys(variants).map((name) => path.join(dir, name)),
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const errors = (name) => tsc.stdout.split('\n').filter((line) => line.includes(`${name}(`));
  assert.deepEqual(errors('current.ts'), [], tsc.stdout);
  assert.match(errors('changed-path.ts').join('\n'), /'"\/api\/admin\/notes"' is not assignable/);
  assert.match(errors('changed-method.ts').join('\n'), /'"GET"' is not assignable to type '"POST"'/);
  assert.match(errors('missing.ts').join('\n'), /Property 'referers' is missing/);
  assert.match(errors('extra.ts').join('\n'), /'ready' does not exist/);
  fs.rmSync(dir, { recursive: true, force: true });
});
