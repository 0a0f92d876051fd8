// Requests and limits of deploy/k8s/ come from the figures bench/scale.bench.mjs measured
// (deploy/resources.json) by deploy/k8s-resources.mjs's rule.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { K8S_DIR } from '../../k8s.mjs';
import { ESTIMATED, fromMeasured, measuredResources, RESOURCES_FILE } from '../../k8s-resources.mjs';

const measured = (steady, peak, avg, cpuPeak) => ({
  instances: 1,
  rssMiB: { steady, peak },
  cpuMillicores: { avg, peak: cpuPeak },
});

test('the rule: memory request the steady RSS, limit 1.5x the peak; CPU request the busy average, limit 1.5x the peak', () => {
  assert.deepEqual(fromMeasured(measured(100.2, 130, 123, 900)), {
    requests: { cpu: '130m', memory: '112Mi' },
    limits: { cpu: '1400m', memory: '256Mi' },
  });
  // An idle role still reserves a little CPU, and its limit leaves room for a Node process to start.
  assert.deepEqual(fromMeasured(measured(60, 70, 0, 40)), {
    requests: { cpu: '10m', memory: '64Mi' },
    limits: { cpu: '500m', memory: '128Mi' },
  });
});

test('a Deployment the run did not measure takes its role’s largest figures; an unknown one is refused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-resources-'));
  try {
    const file = path.join(dir, 'resources.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        deployments: {
          'users-api': measured(90, 100, 20, 300),
          'stocks-api': measured(120, 140, 10, 700),
          'announcements-poller': measured(100, 110, 50, 400),
        },
      }),
    );
    const resourcesOf = measuredResources(file);
    assert.deepEqual(resourcesOf('users-api', 'api'), fromMeasured(measured(90, 100, 20, 300)));
    assert.deepEqual(resourcesOf('example-api', 'api'), fromMeasured(measured(120, 140, 20, 700)));
    assert.equal(resourcesOf('topics', 'job').requests.memory, '128Mi');
    assert.throws(
      () => resourcesOf('example-indexer', 'indexer'),
      /has no figures for it or its role indexer/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every Deployment of the committed base has the requests and limits of its measured figures (or of its written estimate)', () => {
  const { deployments } = JSON.parse(fs.readFileSync(RESOURCES_FILE, 'utf8'));
  const base = path.join(K8S_DIR, 'base');
  const seen = [];
  for (const file of fs.readdirSync(base).filter((f) => f.endsWith('.yaml'))) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(base, file), 'utf8'))) {
      const o = doc.toJS();
      if (o?.kind !== 'Deployment') continue;
      seen.push(o.metadata.name);
      const estimate = ESTIMATED[o.metadata.name];
      assert.ok(
        deployments[o.metadata.name] || estimate,
        `${o.metadata.name} is not in deploy/resources.json nor estimated`,
      );
      assert.deepEqual(
        o.spec.template.spec.containers[0].resources,
        deployments[o.metadata.name] ? fromMeasured(deployments[o.metadata.name]) : estimate,
        o.metadata.name,
      );
    }
  }
  assert.ok(seen.includes('announcements-poller') && seen.includes('email-marketing-sender'), seen.join());
});
