// The project's Node: .node-version names it, scripts/node-runtime.sh fetches it into .local/tools/ (the
// Makefile puts its bin folder first on PATH), and every installed package accepts it (npm ci only warns
// about a package whose `engines` leave it out).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const semver = createRequire(import.meta.url)('semver');
const VERSION = fs.readFileSync(path.join(ROOT, '.node-version'), 'utf8').trim();
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** Every package folder under `nodeModules`, scoped and nested ones too (workspaces through their links). */
function* packageDirs(nodeModules) {
  for (const name of fs.readdirSync(nodeModules)) {
    if (name.startsWith('.')) continue;
    const dir = path.join(nodeModules, name);
    if (name.startsWith('@'))
      for (const scoped of fs.readdirSync(dir)) yield* packageAt(path.join(dir, scoped));
    else yield* packageAt(dir);
  }
}

function* packageAt(dir) {
  if (fs.existsSync(path.join(dir, 'package.json'))) yield dir;
  if (fs.existsSync(path.join(dir, 'node_modules'))) yield* packageDirs(path.join(dir, 'node_modules'));
}

/** npm's own engines check (npm-install-checks): prereleases count. */
const accepts = (range) => semver.satisfies(VERSION, range, { includePrerelease: true });

test('.node-version names a Node 24 release, and the root package.json accepts it', () => {
  assert.match(VERSION, /^24\.\d+\.\d+$/);
  assert.ok(accepts(readJson(path.join(ROOT, 'package.json')).engines.node));
});

test('scripts/node-runtime.sh prints the bin folder of that Node under .local/tools/', () => {
  const bin = execFileSync(path.join(ROOT, 'scripts', 'node-runtime.sh'), { encoding: 'utf8' }).trim();
  assert.equal(bin, path.join(ROOT, '.local', 'tools', `node-${VERSION}`, 'bin'));
  assert.equal(
    execFileSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).trim(),
    `v${VERSION}`,
  );
});

test("every installed package's engines accept that Node", () => {
  const refused = [];
  let checked = 0;
  for (const dir of packageDirs(path.join(ROOT, 'node_modules'))) {
    const { name, version, engines } = readJson(path.join(dir, 'package.json'));
    if (typeof engines?.node !== 'string') continue;
    checked += 1;
    if (!accepts(engines.node))
      refused.push(`${name}@${version} (${path.relative(ROOT, dir)}): ${engines.node}`);
  }
  assert.ok(checked > 100, `only ${checked} packages with engines.node: not the installed tree`);
  assert.deepEqual(refused, []);
});
