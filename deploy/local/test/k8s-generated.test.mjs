// deploy/k8s/ (the Kustomize base, component and overlays) is generated from services/manifest.json by
// deploy/k8s.mjs and committed: this runs its check, so a manifest or generator edited without regenerating
// fails `make test` (the infra suite), and proves that Kustomize itself renders the committed overlays to the
// objects the generator means (the objects k8s-validation.test.mjs validates).
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { readManifest } from '../../generated.mjs';
import { K8S_DIR, loadProto, OVERLAY_NAMES, renderedOverlay } from '../../k8s.mjs';
import { skipUnless } from '../../../scripts/testing/skip-conditions.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCRIPT = path.join(ROOT, 'deploy', 'k8s.mjs');
const MANIFEST = path.join(ROOT, 'services', 'manifest.json');

const k8s = (...args) => {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** A temporary folder, removed after `fn`. */
function inTemp(fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-k8s-'));
  try {
    return fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A copy of the manifest with `change` applied, in `dir`. */
function manifestWith(dir, change) {
  const json = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  change(json);
  const file = path.join(dir, 'manifest.json');
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
  return file;
}

const example = {
  name: 'example',
  workspace: 'services/example',
  package: '@irp/example',
  healthPort: 3199,
  schema: 'example',
};

const docsOf = (text) => YAML.parseAllDocuments(text).map((d) => d.toJS());
const keyOf = (o) => `${o.kind} ${o.metadata.namespace ?? '-'}/${o.metadata.name}`;

test('the committed deploy/k8s/ is what services/manifest.json gives', () => {
  const r = k8s('--check');
  assert.equal(r.code, 0, r.out);
});

test('a changed, a missing and an extra file each fail the check, named, and writing mends all three', () =>
  inTemp((dir) => {
    const out = path.join(dir, 'k8s');
    fs.cpSync(K8S_DIR, out, { recursive: true });
    fs.appendFileSync(path.join(out, 'base', 'users.yaml'), '# edited by hand\n');
    fs.rmSync(path.join(out, 'overlays', 'prod', 'ingress.yaml'));
    fs.writeFileSync(path.join(out, 'base', 'irportal.yaml'), 'kind: Stale\n');
    const r = k8s('--check', '--out', out);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /base\/users\.yaml differs \(line \d+: expected "", found "# edited by hand"\)/);
    assert.match(r.out, /overlays\/prod\/ingress\.yaml is missing/);
    assert.match(r.out, /base\/irportal\.yaml is not generated \(remove it\)/);
    assert.match(r.out, /Run `node deploy\/k8s\.mjs`/);

    assert.equal(k8s('--out', out).code, 0);
    assert.equal(k8s('--check', '--out', out).code, 0);
    assert.ok(!fs.existsSync(path.join(out, 'base', 'irportal.yaml')));
  }));

test('a service added to the manifest gets a Deployment per role, its Service, CPU autoscaling and its egress', () =>
  inTemp((dir) => {
    const manifest = manifestWith(dir, (m) => m.services.push({ ...example, roles: ['api'] }));
    const out = path.join(dir, 'k8s');
    assert.equal(k8s('--check', '--manifest', manifest).code, 1, 'the committed tree lacks it');
    const r = k8s('--manifest', manifest, '--out', out);
    assert.equal(r.code, 0, r.out);

    const base = YAML.parse(fs.readFileSync(path.join(out, 'base', 'kustomization.yaml'), 'utf8'));
    assert.ok(base.resources.includes('example.yaml'));
    const [deployment, service] = docsOf(fs.readFileSync(path.join(out, 'base', 'example.yaml'), 'utf8'));
    assert.equal(deployment.kind, 'Deployment');
    assert.equal(deployment.metadata.name, 'example-api');
    const [container] = deployment.spec.template.spec.containers;
    assert.equal(container.image, 'irportal/example:local');
    assert.deepEqual(
      container.env.filter((e) => ['ROLES', 'HEALTH_PORT'].includes(e.name)),
      [
        { name: 'ROLES', value: 'api' },
        { name: 'HEALTH_PORT', value: '3199' },
      ],
    );
    assert.deepEqual(container.ports, [{ name: 'health', containerPort: 3199 }]);
    assert.equal(service.kind, 'Service');
    const scaling = docsOf(
      fs.readFileSync(path.join(out, 'components', 'autoscaling', 'example.yaml'), 'utf8'),
    );
    assert.deepEqual(
      scaling.map((o) => `${o.kind}/${o.metadata.name}`),
      ['HorizontalPodAutoscaler/example-api', 'PodDisruptionBudget/example-api'],
    );
    const policies = docsOf(fs.readFileSync(path.join(out, 'base', 'network-policies.yaml'), 'utf8'));
    assert.ok(policies.some((p) => p.metadata.name === 'example-egress'));
  }));

test('a role the generator has no scaling for is refused, naming where to add it', () =>
  inTemp((dir) => {
    const manifest = manifestWith(dir, (m) => m.services.push({ ...example, roles: ['api', 'indexer'] }));
    const r = k8s('--manifest', manifest, '--out', path.join(dir, 'k8s'));
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /example-indexer: deploy\/k8s\.mjs has no scaling for role indexer of example/);
    assert.match(r.out, /LAG_SCALED or SINGLE/);
  }));

for (const overlay of OVERLAY_NAMES)
  test(
    `kubectl kustomize deploy/k8s/overlays/${overlay} gives exactly the objects the generator renders`,
    { skip: skipUnless('kubectl', hasKubectl) },
    () => {
      const r = spawnSync('kubectl', ['kustomize', path.join(K8S_DIR, 'overlays', overlay)], {
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      const got = new Map(docsOf(r.stdout).map((o) => [keyOf(o), o]));
      const want = new Map(renderedOverlay(overlay, readManifest(), loadProto()).map((o) => [keyOf(o), o]));
      assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
      for (const [key, object] of want) assert.deepStrictEqual(got.get(key), object, key);
    },
  );
