// The rules of scripts/test.mjs, proven without running a suite (scripts/test-report.mjs): a skip without a
// declared condition fails the run, declared ones are grouped by condition, subsets say so, a full run
// refuses them, and the summary prints suite times and the slowest tests. The last test runs
// scripts/test.mjs itself as .ci/run does, with INT_SPECS set: it refuses before starting anything.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cgroupCpuSeconds, machineCpuSeconds } from '../testing/cpu-account.mjs';
import {
  costliestFilesLines,
  cpuLines,
  fromFileCpuLines,
  failureText,
  finalLine,
  fromJestJson,
  fromLintChecks,
  fromNodeTestLines,
  fromPlaywrightJson,
  parseRun,
  summaryText,
  totals,
  withExitCode,
} from '../test-report.mjs';
import { skipReason, skipUnless, itWhen, conditionIn } from '../testing/skip-conditions.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const at = (file) => path.join(ROOT, file);

/** jest's --json (and vitest's, which writes the same shape), as an it.only and a declared skip leave it. */
const jestJson = {
  testResults: [
    {
      name: at('services/platform/src/a.spec.ts'),
      status: 'passed',
      assertionResults: [
        { status: 'passed', title: 'focused', ancestorTitles: ['probe'], duration: 2 },
        // left out by the it.only above: jest reports it pending and exits 0
        { status: 'pending', title: 'sibling', ancestorTitles: ['probe'], duration: null },
        {
          status: 'pending',
          title: `as root ${skipReason('root')}`,
          ancestorTitles: ['probe'],
          duration: null,
        },
        { status: 'todo', title: 'later', ancestorTitles: ['probe'], duration: null },
      ],
    },
    {
      name: at('services/stocks/test/stocks.int-spec.ts'),
      status: 'failed',
      assertionResults: [
        { status: 'failed', title: 'saves', ancestorTitles: ['stocks'], duration: 1500 },
        { status: 'passed', title: 'lists', ancestorTitles: ['stocks'], duration: 41_000 },
      ],
    },
    {
      name: at('services/users/test/broken.int-spec.ts'),
      status: 'failed',
      message: '  ● Test suite failed to run\n\nCannot find module',
      assertionResults: [],
    },
  ],
};

test('jest: a pending or todo test without a declared condition is a failure; a declared skip is counted apart', () => {
  const r = fromJestJson('unit', jestJson, ROOT);
  assert.equal(r.passed, 2);
  assert.deepEqual(r.declaredSkips, [
    {
      condition: 'root',
      file: 'services/platform/src/a.spec.ts',
      title: 'probe › as root [skip-condition root: needs root]',
    },
  ]);
  assert.deepEqual(r.undeclaredSkips, [
    { file: 'services/platform/src/a.spec.ts', title: 'probe › sibling', status: 'pending' },
    { file: 'services/platform/src/a.spec.ts', title: 'probe › later', status: 'todo' },
  ]);
  assert.deepEqual(
    r.failures.map((f) => `${f.file} › ${f.title}`),
    [
      'services/stocks/test/stocks.int-spec.ts › stocks › saves',
      'services/users/test/broken.int-spec.ts › (the file)',
    ],
  );
  assert.match(r.failures[1].why, /Test suite failed to run/);
  assert.deepEqual(totals([r]), { passed: 2, failed: 4, declared: 1 });
});

test('a skip marked with an undeclared condition id is not declared', () => {
  const r = fromJestJson(
    'unit',
    {
      testResults: [
        {
          name: at('x.spec.ts'),
          status: 'passed',
          assertionResults: [
            { status: 'pending', title: 'x [skip-condition onMars: far]', ancestorTitles: [] },
          ],
        },
      ],
    },
    ROOT,
  );
  assert.equal(r.declaredSkips.length, 0);
  assert.equal(r.undeclaredSkips.length, 1);
});

test('vitest: skipped and todo tests in jest shape are read the same way', () => {
  const r = fromJestJson(
    'web unit',
    {
      testResults: [
        {
          name: at('web/src/a.test.ts'),
          status: 'passed',
          assertionResults: [
            { status: 'passed', title: 'renders', ancestorTitles: ['Page'], duration: 30 },
            { status: 'skipped', title: 'left out', ancestorTitles: ['Page'] },
            { status: 'skipped', title: `as root ${skipReason('root')}`, ancestorTitles: ['Page'] },
            { status: 'todo', title: 'later', ancestorTitles: ['Page'] },
          ],
        },
      ],
    },
    ROOT,
  );
  assert.equal(r.passed, 1);
  assert.equal(r.declaredSkips.length, 1);
  assert.deepEqual(
    r.undeclaredSkips.map((s) => s.status),
    ['skipped', 'todo'],
  );
});

/** Playwright's json reporter: files, describes, specs, a test per project. */
const playwrightJson = {
  config: { rootDir: at('e2e/tests') },
  suites: [
    {
      title: 'sign-in.spec.ts',
      file: 'sign-in.spec.ts',
      specs: [
        {
          title: 'signs in',
          file: 'sign-in.spec.ts',
          tests: [
            { projectName: 'desktop', status: 'expected', results: [{ status: 'passed', duration: 15_500 }] },
          ],
        },
      ],
      suites: [
        {
          title: 'as root',
          file: 'sign-in.spec.ts',
          specs: [
            {
              title: 'reads the file',
              file: 'sign-in.spec.ts',
              tests: [
                {
                  projectName: 'desktop',
                  status: 'skipped',
                  annotations: [{ type: 'skip', description: skipReason('root') }],
                  results: [{ status: 'skipped', duration: 0 }],
                },
              ],
            },
            {
              title: 'free text skip',
              file: 'sign-in.spec.ts',
              tests: [
                {
                  projectName: 'desktop',
                  status: 'skipped',
                  annotations: [{ type: 'skip', description: 'flaky on CI' }],
                  results: [{ status: 'skipped', duration: 0 }],
                },
              ],
            },
            {
              title: 'retried',
              file: 'sign-in.spec.ts',
              tests: [
                {
                  projectName: 'desktop',
                  status: 'flaky',
                  results: [
                    { status: 'failed', duration: 1000 },
                    { status: 'passed', duration: 900 },
                  ],
                },
              ],
            },
            {
              title: 'broken',
              file: 'sign-in.spec.ts',
              tests: [
                {
                  projectName: 'desktop',
                  status: 'unexpected',
                  results: [
                    { status: 'failed', duration: 30_000, errors: [{ message: 'Timeout 30000ms\nat …' }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

test('Playwright: a skip annotation with a declared condition is declared, a free-text one fails', () => {
  const r = fromPlaywrightJson('browser', playwrightJson, ROOT);
  assert.equal(r.passed, 2);
  assert.equal(r.note, '1 flaky');
  assert.deepEqual(r.declaredSkips, [
    { condition: 'root', file: 'e2e/tests/sign-in.spec.ts', title: 'as root › reads the file [desktop]' },
  ]);
  assert.deepEqual(r.undeclaredSkips, [
    { file: 'e2e/tests/sign-in.spec.ts', title: 'as root › free text skip [desktop]', status: 'skipped' },
  ]);
  assert.deepEqual(r.failures, [
    { file: 'e2e/tests/sign-in.spec.ts', title: 'as root › broken [desktop]', why: 'Timeout 30000ms' },
  ]);
  assert.deepEqual(
    r.durations.map((d) => d.ms),
    [15_500, 1900, 30_000],
  );
});

test('node:test: skipUnless gives the declared reason; a free-text skip, a t.skip() and a todo fail', () => {
  assert.equal(skipUnless('root', true), false);
  assert.equal(skipUnless('root', false), '[skip-condition root: needs root]');
  // eslint-disable-next-line tests/no-undeclared-skip -- the helper refuses an undeclared id at run time too
  assert.throws(() => skipUnless('onMars', false), /"onMars" is not a declared skip condition/);
  const lines = [
    {
      status: 'pass',
      name: 'starts',
      nesting: 0,
      file: at('deploy/local/test/infra.test.mjs'),
      durationMs: 8000,
    },
    {
      status: 'pass',
      name: 'as root',
      nesting: 0,
      file: at('deploy/local/test/infra.test.mjs'),
      skip: skipUnless('root', false),
    },
    { status: 'pass', name: 'ctx', nesting: 1, file: at('scripts/test/a.test.mjs'), skip: 'why' },
    { status: 'pass', name: 'bare', nesting: 1, file: at('scripts/test/a.test.mjs'), skip: true },
    { status: 'pass', name: 'later', nesting: 1, file: at('scripts/test/a.test.mjs'), todo: true },
    {
      status: 'pass',
      name: 'group',
      nesting: 0,
      file: at('scripts/test/a.test.mjs'),
      suite: true,
      durationMs: 9,
    },
    { status: 'fail', name: 'breaks', nesting: 1, file: at('scripts/test/a.test.mjs'), durationMs: 3 },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
  const r = fromNodeTestLines('infra script', `${lines}\n`, ROOT);
  assert.equal(r.passed, 1);
  assert.deepEqual(r.declaredSkips, [
    { condition: 'root', file: 'deploy/local/test/infra.test.mjs', title: 'as root' },
  ]);
  assert.deepEqual(
    r.undeclaredSkips.map((s) => `${s.title} (${s.status})`),
    ['ctx (skipped)', 'bare (skipped)', 'later (todo)'],
  );
  assert.deepEqual(r.failures, [{ file: 'scripts/test/a.test.mjs', title: 'breaks', why: 'failed' }]);
});

test('the jest and vitest helpers put the condition in the skipped title, and only when skipping', () => {
  const calls = [];
  const runner = Object.assign((title) => calls.push(['run', title]), {
    skip: (title) => calls.push(['skip', title]),
  });
  itWhen('ownBroker', true, runner)('restarts');
  itWhen('ownBroker', false, runner)('restarts');
  assert.deepEqual(calls, [
    ['run', 'restarts'],
    ['skip', 'restarts [skip-condition ownBroker: needs the broker this run started]'],
  ]);
  assert.equal(conditionIn(calls[1][1]), 'ownBroker');
  // eslint-disable-next-line tests/no-undeclared-skip -- the helper refuses an undeclared id at run time too
  assert.throws(() => itWhen('onMars', true, runner), /not a declared skip condition/);
});

test('a runner that exits non-zero with nothing failed still fails its suite; lint checks count one each', () => {
  const lint = fromLintChecks('lint', [
    { name: 'eslint', ok: true },
    { name: 'boundaries', ok: false },
  ]);
  assert.equal(lint.passed, 1);
  assert.deepEqual(
    lint.failures.map((f) => f.title),
    ['boundaries'],
  );
  const quiet = withExitCode(fromJestJson('unit', { testResults: [] }, ROOT), 1, 'jest');
  assert.deepEqual(quiet.failures, [{ file: '', title: '(the run)', why: 'jest exited 1' }]);
  assert.equal(finalLine([]), '0 passed, 1 failed');
});

test('the command line: a suite list and INT_SPECS / E2E_SPECS make a subset; an unknown suite is refused', () => {
  const full = parseRun([], {});
  assert.deepEqual(full.suites, ['lint', 'unit', 'web', 'infra', 'integration', 'browser']);
  assert.deepEqual(full.subset, []);
  assert.deepEqual(full.problems, []);
  const specs = parseRun([], { INT_SPECS: 'comments  senders-scale', E2E_SPECS: 'sign-in' });
  assert.deepEqual(specs.intSpecs, ['comments', 'senders-scale']);
  assert.deepEqual(specs.subset, ['INT_SPECS=comments senders-scale', 'E2E_SPECS=sign-in']);
  const some = parseRun(['unit', 'lint'], { INT_SPECS: 'comments' });
  assert.deepEqual(some.suites, ['lint', 'unit']);
  assert.deepEqual(some.intSpecs, [], 'INT_SPECS means nothing without the integration suite');
  assert.deepEqual(some.subset, ['suites: lint unit']);
  assert.match(parseRun(['units'], {}).problems[0], /no suite named units; the suites are lint, unit/);
  assert.deepEqual(parseRun(['--changed'], {}).subset, ['changed files']);
});

test('the full run (TEST_FULL_RUN=1, .ci/run) refuses a suite list, INT_SPECS, E2E_SPECS and --changed', () => {
  assert.deepEqual(parseRun([], { TEST_FULL_RUN: '1' }).problems, []);
  assert.deepEqual(parseRun([], { TEST_FULL_RUN: '1', INT_SPECS: '  ' }).problems, []);
  for (const [argv, env, named] of [
    [[], { INT_SPECS: 'comments' }, /refuses INT_SPECS=comments/],
    [[], { E2E_SPECS: 'sign-in' }, /refuses E2E_SPECS=sign-in/],
    [['unit'], {}, /refuses a suite list \(unit\)/],
    [['lint'], { INT_SPECS: 'comments' }, /refuses a suite list \(lint\), INT_SPECS=comments/],
    [['--changed'], {}, /refuses --changed/],
  ]) {
    const { problems } = parseRun(argv, { ...env, TEST_FULL_RUN: '1' });
    assert.equal(problems.length, 1);
    assert.match(problems[0], /this is the full run \(TEST_FULL_RUN=1, as \.ci\/run sets it\)/);
    assert.match(problems[0], named);
  }
});

test('the summary: suite times, declared skips by condition, every undeclared skip and failure, the ten slowest', () => {
  const unit = fromJestJson('unit', jestJson, ROOT);
  unit.wallMs = 65_400;
  const infra = fromNodeTestLines(
    'infra script',
    [
      {
        status: 'pass',
        name: 'as root',
        file: at('deploy/local/test/infra.test.mjs'),
        skip: skipReason('root'),
      },
      { status: 'pass', name: 'starts', file: at('deploy/local/test/infra.test.mjs'), durationMs: 8000 },
      ...Array.from({ length: 12 }, (_, i) => ({
        status: 'pass',
        name: `quick ${i}`,
        file: at('scripts/test/a.test.mjs'),
        durationMs: i,
      })),
    ]
      .map((l) => JSON.stringify(l))
      .join('\n'),
    ROOT,
  );
  infra.wallMs = 12_000;
  const text = summaryText([unit, infra], { subset: ['suites: unit infra'], tookMs: 80_000 });
  const lines = text.split('\n');
  assert.match(lines[1], /^\[test\] {3}unit +2 passed, 4 failed, 1 skipped \(declared\) +65\.4 s$/);
  assert.match(lines[2], /^\[test\] {3}infra script +13 passed, 0 failed, 1 skipped \(declared\) +12\.0 s$/);
  assert.ok(lines.includes('[test] skipped (declared): 2 × needs root'), text);
  assert.ok(
    lines.includes(
      '[test] FAILED unit: pending without a declared condition: services/platform/src/a.spec.ts › probe › sibling',
    ),
    text,
  );
  assert.ok(
    lines.includes(
      '[test] FAILED unit: todo without a declared condition: services/platform/src/a.spec.ts › probe › later',
    ),
  );
  assert.ok(lines.includes('[test] FAILED unit: services/stocks/test/stocks.int-spec.ts › stocks › saves'));
  const slowAt = lines.indexOf('[test] slowest 10 tests:');
  assert.ok(slowAt > 0, text);
  const slow = lines.slice(slowAt + 1, slowAt + 11);
  assert.match(
    slow[0],
    /^\[test\] +41\.0 s {2}unit +services\/stocks\/test\/stocks\.int-spec\.ts › stocks › lists$/,
  );
  assert.match(slow[1], /^\[test\] +8\.0 s {2}infra script deploy\/local\/test\/infra\.test\.mjs › starts$/);
  // The failures come last, beside the final line (a CI log that keeps only its tail still names them).
  assert.equal(lines[slowAt + 11], '[test] failed in: unit 4');
  assert.match(lines[slowAt + 12], /^\[test\] FAILED unit: /);
  assert.equal(lines.at(-2), '[test] took 80 s');
  assert.match(lines.at(-3), /^\[test\] FAILED unit: /);
  assert.equal(lines.at(-1), '15 passed, 4 failed, 2 skipped (declared) (subset: suites: unit infra)');
});

test('scripts/test.mjs in full-run mode with INT_SPECS refuses at once, starting nothing', () => {
  const env = { ...process.env, TEST_FULL_RUN: '1', INT_SPECS: 'comments' };
  delete env.E2E_SPECS;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'test.mjs')], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /this is the full run \(TEST_FULL_RUN=1, as \.ci\/run sets it\): .*refuses INT_SPECS=comments/,
  );
  assert.equal(r.stdout.trim().split('\n').at(-1), '0 passed, 1 failed');
  assert.doesNotMatch(`${r.stdout}${r.stderr}`, /\[lint\]|\[infra\]|kafka/i, 'nothing ran');
});

test('a failure line says what the runner said: the first lines of the message, without colours or stack', () => {
  const r = fromJestJson(
    'integration',
    {
      testResults: [
        {
          name: `${ROOT}/gateway/test/spec-client.int-spec.ts`,
          status: 'failed',
          assertionResults: [
            {
              status: 'failed',
              title: 'reconciles',
              ancestorTitles: ['spec'],
              duration: 60_000,
              failureMessages: [
                'Error: \u001b[31mthe reconcile run finishing: not within 45000 ms\u001b[39m\n    at until (gateway-harness.ts:87:11)',
              ],
            },
          ],
        },
      ],
    },
    ROOT,
  );
  assert.deepEqual(r.failures, [
    {
      file: 'gateway/test/spec-client.int-spec.ts',
      title: 'spec › reconciles',
      why: 'Error: the reconcile run finishing: not within 45000 ms',
    },
  ]);
  assert.equal(failureText('x'.repeat(3000)).length, 2000);
  assert.equal(
    failureText('expect(received).toEqual(expected)\n\n- Expected\n+ Received'),
    'expect(received).toEqual(expected) / - Expected / + Received',
  );
});

test('the CPU lines: the total with its source, each suite by cost, the rest, and the headroom to the goal', () => {
  const lines = cpuLines(
    {
      source: 'cgroup',
      seconds: 1200,
      machineSeconds: 1290,
      wallSeconds: 1000,
      perSuite: [
        { name: 'unit', seconds: 100 },
        { name: 'browser', seconds: 400 },
        { name: 'kafka brokers', seconds: 150 },
      ],
    },
    { cores: 2 },
  );
  assert.match(
    lines[0],
    /^\[test\] CPU: 1,200 CPU-s by every process the run started \(its cgroup\); 1,290 CPU-s machine-wide/,
  );
  assert.match(lines[0], /over 1000 s wall: 60% of 2 cores$/);
  assert.deepEqual(
    lines.slice(1, 5).map((l) => l.replace(/\s+/g, ' ')),
    [
      '[test] browser 400 CPU-s',
      '[test] kafka brokers 150 CPU-s',
      '[test] unit 100 CPU-s',
      '[test] install, build, runner 550 CPU-s',
    ],
  );
  assert.equal(lines.at(-1), '[test] CPU goal ≤ 1,500 CPU-s for a full run: 300 CPU-s of headroom');
  const over = cpuLines({ source: 'machine', machineSeconds: 1600, wallSeconds: 800, perSuite: [] });
  assert.match(over[0], /1,600 CPU-s machine-wide \(no cgroup could be made/);
  assert.equal(over.at(-1), '[test] CPU goal ≤ 1,500 CPU-s for a full run: 100 CPU-s over');
  // and it sits in the summary, before the last line
  const summary = summaryText([], {
    cpu: { source: 'machine', machineSeconds: 10, wallSeconds: 5, perSuite: [] },
  }).split('\n');
  assert.match(summary.at(-3), /^\[test\] CPU goal/);
});

test('CPU counters: /proc/stat without idle and iowait, an unreadable cgroup is undefined', () => {
  assert.equal(machineCpuSeconds('cpu  100 20 30 5000 70 1 2 3 0 0\ncpu0 1 2 3'), 1.56);
  assert.equal(machineCpuSeconds('intr 1 2'), undefined);
  assert.equal(cgroupCpuSeconds('/nonexistent/cgroup'), undefined);
});

test('costliest files: the per-file CPU lines read (a cut line left out), the most costly first, across suites', () => {
  const files = fromFileCpuLines(
    [
      '{"file":"gateway/test/a.int-spec.ts","cpuSeconds":12.5,"wallMs":30000}',
      '{"file":"gateway/test/b.int-spec.ts","cpuSeconds":40,"wallMs":61000}',
      '{"file":"gateway/test/c.int-sp',
      '',
    ].join('\n'),
  );
  assert.deepEqual(
    files.map((f) => f.file),
    ['gateway/test/a.int-spec.ts', 'gateway/test/b.int-spec.ts'],
  );
  const services = {
    name: 'integration',
    filesCpu: [{ file: 's.int-spec.ts', cpuSeconds: 20, wallMs: 5000 }],
  };
  const lines = costliestFilesLines(
    [{ name: 'integration gateway', filesCpu: files }, services, { name: 'unit' }],
    2,
  );
  assert.equal(lines[0], '[test] costliest 2 files (CPU of the file and every process it started):');
  assert.deepEqual(
    lines.slice(1).map((l) => l.replace(/\s+/g, ' ').trim()),
    [
      '[test] 40 CPU-s 61.0 s integration gateway gateway/test/b.int-spec.ts',
      '[test] 20 CPU-s 5.0 s integration s.int-spec.ts',
    ],
  );
  assert.deepEqual(costliestFilesLines([{ name: 'unit' }]), []);
});
