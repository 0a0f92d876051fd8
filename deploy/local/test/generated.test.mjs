// docker-compose.yml (deploy/compose.mjs, committed and checked) is generated from services/manifest.json;
// this runs the compose check, so a manifest edited without regenerating fails `make test` (the infra
// suite), and proves the generator follows the manifest. deploy/k8s/ has its own: k8s-generated.test.mjs.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { composeFile } from '../../compose.mjs';
import { readManifest } from '../../generated.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCRIPT = path.join(ROOT, 'deploy', 'compose.mjs');
const MANIFEST = path.join(ROOT, 'services', 'manifest.json');

function node(script, args) {
  const r = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}
const compose = (...args) => node(SCRIPT, args);

/** A temporary copy of the manifest with `change` applied to its parsed JSON. */
function manifestWith(change) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-compose-'));
  const json = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  change(json);
  const file = path.join(dir, 'manifest.json');
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
  return { dir, file };
}

const example = {
  name: 'example',
  workspace: 'services/example',
  package: '@irp/example',
  healthPort: 3199,
  schema: 'example',
};

test('the committed docker-compose.yml is what services/manifest.json gives', () => {
  const r = compose('--check');
  assert.equal(r.code, 0, r.out);
});

test('a service added to the manifest without regenerating fails the check, naming the fix', () => {
  const { dir, file } = manifestWith((m) => m.services.push({ ...example, roles: ['api', 'poller'] }));
  try {
    const r = compose('--check', '--manifest', file);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /docker-compose\.yml is not what .*manifest\.json gives/);
    assert.match(r.out, /Run `node deploy\/compose\.mjs`/);

    const out = path.join(dir, 'docker-compose.yml');
    assert.equal(compose('--manifest', file, '--out', out).code, 0);
    assert.equal(compose('--check', '--manifest', file, '--out', out).code, 0);
    const text = fs.readFileSync(out, 'utf8');
    const block = /\n {2}example:\n((?: {4}.*\n)+)/.exec(text)?.[1] ?? '';
    assert.match(block, /target: service\n\s+args:\n\s+SERVICE: example\n/);
    assert.match(block, /HEALTH_PORT: 3199\n/);
    assert.match(block, /ROLES: \$\{EXAMPLE_ROLES:-api,poller\}\n/);
    const gateway = /\n {2}gateway:\n((?: {4}.*\n)+)/.exec(text)?.[1] ?? '';
    assert.match(gateway, /example:\n\s+condition: service_healthy/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every manifest service is one compose service built from deploy/Dockerfile', () => {
  const services = readManifest();
  const text = composeFile(services);
  for (const s of services) {
    assert.match(text, new RegExp(`\\n  ${s.name}:\\n    image: irportal/${s.name}:local\\n`));
    assert.match(text, new RegExp(`SERVICE: ${s.name}\\n`));
    assert.match(text, new RegExp(`HEALTH_PORT: ${s.healthPort}\\n`));
  }
  for (const infra of ['kafka', 'postgres', 'maildev', 'topics', 'gateway'])
    assert.match(text, new RegExp(`\\n  ${infra}:\\n`));
});

test('a workspace outside services/<name> is refused (deploy/Dockerfile finds it from SERVICE)', () => {
  const { dir, file } = manifestWith((m) =>
    m.services.push({ ...example, workspace: 'apps/example', roles: ['api'] }),
  );
  try {
    assert.throws(() => readManifest(file), /\(example\)\.workspace must be services\/example/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("deploy/Dockerfile's base is pinned by digest, on the major of .node-version", () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
  assert.match(
    image ?? '',
    /^node:\d+-[a-z]+-slim@sha256:[0-9a-f]{64}$/,
    'a tag alone moves with every rebuild',
  );
  const major = fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim().split('.')[0];
  assert.equal(image.split(':')[1].split('-')[0], major);
  // Every stage starts from it (or from a stage that did): no second, unpinned base.
  for (const [, from] of dockerfile.matchAll(/^FROM (\S+)/gm))
    assert.ok(from === '${NODE_IMAGE}' || /^[a-z-]+$/.test(from), `FROM ${from}`);
});

test('each process connects as its own database role, which the one-shot database service makes first', async () => {
  // The platform's rules (Node strips the types of this dependency-free module).
  const roles = await import('../../../services/platform/src/database-roles.ts');
  const services = readManifest();
  const text = composeFile(services);
  const urlOf = (schema) => `postgres://${roles.tenantRoleOf(schema)}@postgres:5432/irportal`;
  for (const t of roles.databaseTenants(services)) {
    assert.ok(text.includes(`      ${roles.tenantUrlVariable(t.schema)}: ${urlOf(t.schema)}\n`), t.name);
    const block = text.slice(text.indexOf(`\n  ${t.name}:\n`)).split('\n\n')[0];
    assert.ok(block.includes(`      DATABASE_URL: ${urlOf(t.schema)}\n`), `${t.name}'s DATABASE_URL`);
    assert.match(block, /database:\n {8}condition: service_completed_successfully/, t.name);
  }
  assert.equal(text.match(/postgres:\/\/postgres@/g).length, 1, 'only the database service is the admin');
});
