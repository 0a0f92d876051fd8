// The web app's bundle carries no zod (web/README.md): proto's schema modules, its route table among them,
// reach the browser only as types. Builds the app as `npm run build -w web` does, in memory, and looks at
// which modules went in and at the code itself.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(ROOT, 'web');

test('the web bundle has no zod module and no zod code, and bundles proto only through zod-free modules', async () => {
  const result = await build({
    root: WEB,
    configFile: path.join(WEB, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, sourcemap: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const chunks = outputs.filter((o) => o.type === 'chunk');
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
