// The publisher of an event owns it: every event a service publishes through its outbox
// (`outbox.add(manager, Topics.X, ...)` in services/<name>/src) is declared in that service's contract
// (proto/src/<name>/index.ts, its `events`), never in a consumer's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildProto } from '../web-routes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'services', 'manifest.json'), 'utf8'));

/** The non-test TypeScript sources under `dir`. */
function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    const file = path.join(e.parentPath, e.name);
    return e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [file] : [];
  });
}

/** The topic constants a service's sources put in its outbox. */
function published(workspace) {
  const names = new Set();
  for (const file of sources(path.join(ROOT, workspace, 'src'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/\boutbox\.add\(\s*[\w.]+\s*,\s*Topics\.(\w+)/g))
      names.add(m[1]);
  }
  return [...names];
}

let contracts;
before(() => {
  buildProto();
  contracts = require(path.join(ROOT, 'proto', 'dist')).SERVICE_CONTRACTS;
});

test('every event a service publishes is declared in its own contract', () => {
  const owners = new Map(contracts.map((c) => [c.service, c]));
  const seen = [];
  for (const { name, workspace } of manifest.services) {
    const contract = owners.get(name);
    assert.ok(contract, `${name} has a contract`);
    for (const constant of published(workspace)) {
      const topic = contract.topics[constant];
      assert.ok(
        topic && topic in contract.events,
        `${name} publishes Topics.${constant}, which its contract (proto/src/${name}/) does not declare`,
      );
      seen.push(`${name} ${topic}`);
    }
  }
  // The scan finds what it should (not a check that passes on nothing).
  assert.ok(seen.includes('email-marketing announcement.delivered'), seen.join(', '));
  assert.ok(seen.includes('stocks stock.upserted'), seen.join(', '));
});
