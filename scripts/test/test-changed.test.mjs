// `make test-changed`'s mapping from changed files to suites and spec files (scripts/test-changed.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planChanged, planText } from '../test-changed.mjs';

test('nothing but docs changed: lint only', () => {
  const plan = planChanged(['docs/architecture.md', 'README.md']);
  assert.deepEqual(plan.suites, ['lint']);
  assert.deepEqual(plan.why, ['docs/architecture.md → lint only', 'README.md → lint only']);
});

test("a service's source: its related unit tests, its integration specs and the gateway's", () => {
  const plan = planChanged([
    'services/announcements/src/ingestion/poll-rules.ts',
    'services/announcements/src/comments/comments.service.ts',
  ]);
  assert.deepEqual(plan.suites, ['lint', 'unit', 'integration']);
  assert.deepEqual(plan.unit, {
    all: false,
    related: [
      'services/announcements/src/ingestion/poll-rules.ts',
      'services/announcements/src/comments/comments.service.ts',
    ],
  });
  assert.deepEqual(plan.integration, {
    all: false,
    specs: ['services/announcements/test/', 'gateway/test/'],
  });
  assert.match(
    plan.why[0],
    /→ unit tests related to it, the integration specs of services\/announcements, the gateway integration specs \(they run it\)$/,
  );
});

test('an integration spec: that spec; a helper beside the specs: every spec of its service; the folder covers the spec', () => {
  assert.deepEqual(planChanged(['services/email-marketing/test/senders-scale.int-spec.ts']).integration, {
    all: false,
    specs: ['services/email-marketing/test/senders-scale.int-spec.ts'],
  });
  const plan = planChanged([
    'services/announcements/test/pollers-scale.int-spec.ts',
    'services/announcements/test/polling-harness.ts',
    'gateway/test/comments.int-spec.ts',
  ]);
  assert.deepEqual(plan.suites, ['lint', 'integration']);
  assert.deepEqual(plan.integration.specs, [
    'services/announcements/test/',
    'gateway/test/comments.int-spec.ts',
  ]);
});

test('the gateway: its related unit tests and its integration specs', () => {
  const plan = planChanged(['gateway/src/auth/roles.guard.ts']);
  assert.deepEqual(plan.unit.related, ['gateway/src/auth/roles.guard.ts']);
  assert.deepEqual(plan.integration.specs, ['gateway/test/']);
});

test('proto/ and the platform reach every unit and integration test (proto also the web tests that import it)', () => {
  for (const file of [
    'proto/src/stocks/index.ts',
    'services/platform/src/kafka.ts',
    'services/manifest.json',
    'jest.preset.js',
  ]) {
    const plan = planChanged([file, 'services/stocks/src/notes/notes.service.ts']);
    assert.equal(plan.unit.all, true, file);
    assert.deepEqual(plan.unit.related, [], file);
    assert.equal(plan.integration.all, true, file);
    assert.deepEqual(plan.integration.specs, [], file);
  }
  assert.deepEqual(planChanged(['proto/src/stocks/index.ts']).web, {
    all: false,
    related: ['../proto/src/stocks/index.ts'],
  });
  assert.deepEqual(planChanged(['proto/src/stocks/index.ts']).suites, ['lint', 'unit', 'web', 'integration']);
});

test('web/src: vitest related; other web files: every web test', () => {
  const plan = planChanged(['web/src/features/stocks/components/StockPage.tsx']);
  assert.deepEqual(plan.suites, ['lint', 'web']);
  assert.deepEqual(plan.web.related, ['src/features/stocks/components/StockPage.tsx']);
  assert.equal(planChanged(['web/vite.config.ts']).web.all, true);
});

test('e2e/: a browser spec runs alone; a fixture or the config runs every browser spec', () => {
  const plan = planChanged(['e2e/tests/sign-in.spec.ts', 'e2e/tests/comments.spec.ts']);
  assert.deepEqual(plan.suites, ['lint', 'browser']);
  assert.deepEqual(plan.browser, { all: false, specs: ['sign-in.spec.ts', 'comments.spec.ts'] });
  assert.equal(planChanged(['e2e/fixtures.ts']).browser.all, true);
  assert.equal(planChanged(['e2e/tests/stock-helpers.ts']).browser.all, true);
});

test('scripts/ and deploy/: the infra suite; the stack script also every browser spec', () => {
  assert.deepEqual(planChanged(['scripts/eslint/test-rules.mjs']).suites, ['lint', 'infra']);
  assert.deepEqual(planChanged(['deploy/local/infra.mjs']).suites, ['lint', 'infra']);
  assert.deepEqual(planChanged(['scripts/stack.mjs']).suites, ['lint', 'infra', 'browser']);
  assert.deepEqual(planChanged(['scripts/manifest.cjs']).suites, ['lint', 'unit', 'infra', 'integration']);
});

test('.node-version: every suite', () => {
  assert.deepEqual(planChanged(['.node-version']).suites, [
    'lint',
    'unit',
    'web',
    'infra',
    'integration',
    'browser',
  ]);
});

test('the plan as printed names each file, why, and what runs', () => {
  const text = planText(planChanged(['services/stocks/src/notes/notes.service.ts']), 'HEAD');
  assert.equal(
    text,
    [
      '[test] changed files (against HEAD, plus uncommitted and untracked):',
      '[test]   services/stocks/src/notes/notes.service.ts → unit tests related to it, the integration specs of services/stocks, the gateway integration specs (they run it)',
      '[test] runs: lint, unit (services/stocks/src/notes/notes.service.ts), integration (services/stocks/test/ gateway/test/)',
    ].join('\n'),
  );
});

test('the lockfile or the audit allow list: the infra suite, where the dependency audit runs', () => {
  assert.ok(planChanged(['package-lock.json']).suites.includes('infra'));
  const plan = planChanged(['security/audit-allowlist.json']);
  assert.deepEqual(plan.suites, ['lint', 'infra']);
});
