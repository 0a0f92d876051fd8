// The pure parts of scripts/test.mjs: which suites a command line asks for (and whether that is a subset),
// each runner's results read into one shape, and the summary text. No process, file or network here, so
// scripts/test/test-report.test.mjs proves the rules with small result objects.
import path from 'node:path';
import { createRequire } from 'node:module';

const { SKIP_CONDITIONS, conditionIn } = createRequire(import.meta.url)('./testing/skip-conditions.js');

export const SUITES = ['lint', 'unit', 'web', 'infra', 'integration', 'browser'];

/** `TEST_FULL_RUN=1` (set by .ci/run): every suite and every spec, or nothing. */
export const FULL_RUN_ENV = 'TEST_FULL_RUN';

const specsOf = (value) => (value ?? '').split(/\s+/).filter(Boolean);

/**
 * The command line and environment of scripts/test.mjs, validated: `{ suites, intSpecs, e2eSpecs, changed,
 * subset, problems }`. `subset` names what makes the run less than the full one (empty for a full run);
 * `problems` are reasons to refuse to run at all.
 */
export function parseRun(argv, env) {
  const changed = argv.includes('--changed');
  const names = argv.filter((a) => a !== '--changed');
  const problems = [];
  const unknown = names.filter((s) => !SUITES.includes(s));
  if (unknown.length)
    problems.push(`no suite named ${unknown.join(', ')}; the suites are ${SUITES.join(', ')}`);
  const suites = names.length ? SUITES.filter((s) => names.includes(s)) : [...SUITES];
  const intSpecs = suites.includes('integration') ? specsOf(env.INT_SPECS) : [];
  const e2eSpecs = suites.includes('browser') ? specsOf(env.E2E_SPECS) : [];
  const subset = [];
  if (changed) subset.push('changed files');
  if (names.length) subset.push(`suites: ${suites.join(' ')}`);
  if (intSpecs.length) subset.push(`INT_SPECS=${intSpecs.join(' ')}`);
  if (e2eSpecs.length) subset.push(`E2E_SPECS=${e2eSpecs.join(' ')}`);
  if (env[FULL_RUN_ENV] === '1') {
    // The full run's subsets come from the environment too: INT_SPECS left set in a shell is refused even
    // when the suite list would not use it.
    const given = [
      ...(changed ? ['--changed'] : []),
      ...(names.length ? [`a suite list (${names.join(' ')})`] : []),
      ...(specsOf(env.INT_SPECS).length ? [`INT_SPECS=${env.INT_SPECS}`] : []),
      ...(specsOf(env.E2E_SPECS).length ? [`E2E_SPECS=${env.E2E_SPECS}`] : []),
    ];
    if (given.length)
      problems.push(
        `this is the full run (${FULL_RUN_ENV}=1, as .ci/run sets it): it runs every suite and every spec, so it refuses ${given.join(', ')}`,
      );
  }
  return { suites, intSpecs, e2eSpecs, changed, subset, problems };
}

/** One suite's results, whatever the runner: what the summary and the exit code are made of. */
export function emptyResult(name) {
  return {
    name,
    passed: 0,
    /** Tests that failed, and runs that failed without a test to blame (`{ file, title, why }`). */
    failures: [],
    /** Skipped through a declared condition: `{ condition, file, title }`. */
    declaredSkips: [],
    /** Skipped, todo or left out by a focused sibling, without a declared condition: `{ file, title, status }`. */
    undeclaredSkips: [],
    /** `{ file, title, ms }` of every test that ran. */
    durations: [],
    note: '',
    wallMs: 0,
  };
}

const rel = (root, file) =>
  file && root && path.isAbsolute(file) ? path.relative(root, file) : (file ?? '');

function skipped(result, { file, title, status, reasons }) {
  const condition = status === 'todo' ? undefined : reasons.map(conditionIn).find(Boolean);
  if (condition && Object.hasOwn(SKIP_CONDITIONS, condition))
    result.declaredSkips.push({ condition, file, title });
  else result.undeclaredSkips.push({ file, title, status });
}

/** jest's and vitest's `--json` results (vitest writes jest's shape). */
/**
 * What a failure's message says, for the summary line: its first lines without colours (an expectation's
 * `expect(received).toEqual(expected)` alone says nothing; the lines after it say what differed), capped.
 */
export function failureText(message, fallback = 'failed') {
  const lines = String(message ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  // Enough of it to read a failed assertion's diff (a list of problems) in CI's tail, on one line.
  const text = lines.slice(0, 30).join(' / ');
  if (!text) return fallback;
  return text.length > 2000 ? `${text.slice(0, 1999)}…` : text;
}

export function fromJestJson(name, json, root) {
  const result = emptyResult(name);
  for (const file of json.testResults ?? []) {
    const where = rel(root, file.name);
    const tests = file.assertionResults ?? [];
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed'))
      result.failures.push({
        file: where,
        title: '(the file)',
        why: failureText(file.message, 'failed to run'),
      });
    for (const t of tests) {
      const title = [...(t.ancestorTitles ?? []), t.title].filter(Boolean).join(' › ') || t.fullName;
      if (t.status === 'passed') {
        result.passed += 1;
        result.durations.push({ file: where, title, ms: t.duration ?? 0 });
      } else if (t.status === 'failed') {
        result.failures.push({ file: where, title, why: failureText((t.failureMessages ?? []).join('\n')) });
        result.durations.push({ file: where, title, ms: t.duration ?? 0 });
      } else skipped(result, { file: where, title, status: t.status, reasons: [t.title, t.fullName] });
    }
  }
  return result;
}

/** Playwright's json reporter. A flaky test (passed on a retry) counts as passed and is noted. */
export function fromPlaywrightJson(name, json, root) {
  const result = emptyResult(name);
  let flaky = 0;
  // The file is the top-level suite's: a spec's own file is where `test()` was called, which for a test
  // declared through testWhen (scripts/testing/skip-conditions.js) is the helper.
  const walk = (suite, titles, specFile) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const file = rel(root, path.join(json.config?.rootDir ?? '', specFile ?? ''));
        const title =
          [...titles, spec.title].filter(Boolean).join(' › ') + (t.projectName ? ` [${t.projectName}]` : '');
        const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        if (t.status === 'expected' || t.status === 'flaky') {
          result.passed += 1;
          if (t.status === 'flaky') flaky += 1;
          result.durations.push({ file, title, ms });
        } else if (t.status === 'skipped') {
          const annotations = [
            ...(t.annotations ?? []),
            ...(t.results ?? []).flatMap((r) => r.annotations ?? []),
          ];
          skipped(result, {
            file,
            title,
            status: 'skipped',
            reasons: [spec.title, ...annotations.map((a) => a.description)],
          });
        } else {
          const error = (t.results ?? []).flatMap((r) => r.errors ?? [r.error]).find(Boolean);
          result.failures.push({ file, title, why: failureText(error?.message, t.status) });
          result.durations.push({ file, title, ms });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title], specFile);
  };
  // The top-level suites are the spec files; their titles are file names, not describe titles.
  for (const top of json.suites ?? []) walk(top, [], top.file);
  for (const e of json.errors ?? [])
    result.failures.push({ file: '', title: '(the run)', why: (e.message ?? String(e)).split('\n')[0] });
  if (flaky) result.note = `${flaky} flaky`;
  return result;
}

/** The JSON lines of scripts/testing/node-test-reporter.mjs (node:test). */
export function fromNodeTestLines(name, text, root) {
  const result = emptyResult(name);
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line);
    const file = rel(root, e.file);
    const isSkip = e.skip !== undefined && e.skip !== false;
    const isTodo = e.todo !== undefined && e.todo !== false;
    if (isSkip || isTodo)
      skipped(result, {
        file,
        title: e.name,
        status: isTodo ? 'todo' : 'skipped',
        reasons: [typeof e.skip === 'string' ? e.skip : undefined],
      });
    else if (e.suite)
      continue; // its tests are counted one by one
    else if (e.status === 'pass') {
      result.passed += 1;
      result.durations.push({ file, title: e.name, ms: e.durationMs ?? 0 });
    } else {
      result.failures.push({ file, title: e.name, why: 'failed' });
      result.durations.push({ file, title: e.name, ms: e.durationMs ?? 0 });
    }
  }
  return result;
}

/** scripts/lint.mjs --json: each check counts as one test. */
export function fromLintChecks(name, checks) {
  const result = emptyResult(name);
  for (const c of checks) {
    if (c.ok) result.passed += 1;
    else result.failures.push({ file: 'scripts/lint.mjs', title: c.name, why: 'failed' });
  }
  return result;
}

/** A runner that exited non-zero without a failed test to show for it still fails its suite. */
export function withExitCode(result, code, runner) {
  if (code !== 0 && result.failures.length === 0 && result.undeclaredSkips.length === 0)
    result.failures.push({ file: '', title: '(the run)', why: `${runner} exited ${code}` });
  return result;
}

/** A suite that produced no results at all. */
export function brokenSuite(name, why) {
  const result = emptyResult(name);
  result.failures.push({ file: '', title: '(the run)', why });
  return result;
}

export const failedCount = (r) => r.failures.length + r.undeclaredSkips.length;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The totals of a run: failed includes every skip without a declared condition. */
export function totals(results) {
  return results.reduce(
    (t, r) => ({
      passed: t.passed + r.passed,
      failed: t.failed + failedCount(r),
      declared: t.declared + r.declaredSkips.length,
    }),
    { passed: 0, failed: 0, declared: 0 },
  );
}

/** The last line of every run: `N passed, M failed` (then declared skips and the subset, when any). */
export function finalLine(results, subset = []) {
  const t = totals(results);
  const failed = results.length === 0 ? Math.max(t.failed, 1) : t.failed;
  return `${t.passed} passed, ${failed} failed${t.declared ? `, ${t.declared} skipped (declared)` : ''}${
    subset.length ? ` (subset: ${subset.join('; ')})` : ''
  }`;
}

/** One suite's line as the runner finishes it. */
export function suiteLine(r) {
  const skips = r.declaredSkips.length ? `, ${r.declaredSkips.length} skipped (declared)` : '';
  const undeclared = r.undeclaredSkips.length
    ? ` (${r.undeclaredSkips.length} skipped without a declared condition)`
    : '';
  return `[test] ${r.name}: ${r.passed} passed, ${failedCount(r)} failed${skips}${undeclared}${r.note ? ` (${r.note})` : ''}`;
}

/**
 * The integration environment's per-file figures (one JSON line per file: `{ file, cpuSeconds, wallMs }`),
 * lines that are not such an object left out (a file cut short mid-line).
 */
export function fromFileCpuLines(text) {
  const files = [];
  for (const line of text.split('\n')) {
    try {
      const f = JSON.parse(line);
      if (typeof f?.file === 'string' && Number.isFinite(f.cpuSeconds)) files.push(f);
    } catch {
      /* not a whole line */
    }
  }
  return files;
}

/** The `n` test files that cost the most CPU (with what they started), where a suite counted them. */
export function costliestFilesLines(results, n = 10) {
  const files = results
    .flatMap((r) => (r.filesCpu ?? []).map((f) => ({ suite: r.name, ...f })))
    .sort((a, b) => b.cpuSeconds - a.cpuSeconds)
    .slice(0, n);
  if (!files.length) return [];
  return [
    `[test] costliest ${files.length} files (CPU of the file and every process it started):`,
    ...files.map(
      (f) =>
        `[test]   ${cpuSeconds(f.cpuSeconds).padStart(12)} ${seconds(f.wallMs).padStart(8)}  ${f.suite.padEnd(12)} ${f.file}`,
    ),
  ];
}

/** The CPU a full `make test` may cost on the project's 2-core machine (issue 29): the summary shows the headroom. */
export const CPU_GOAL_SECONDS = 1500;

const cpuSeconds = (s) => `${Math.round(s).toLocaleString('en-US')} CPU-s`;

/**
 * The run's CPU (scripts/testing/cpu-account.mjs's report): the total with its source, each suite's, the
 * brokers', and the rest (install, build, the runner), then the goal and the headroom left.
 */
export function cpuLines(cpu, { cores = 2 } = {}) {
  if (!cpu) return [];
  const total = cpu.seconds ?? cpu.machineSeconds;
  if (total === undefined) return ['[test] CPU: no cgroup and no /proc/stat to count it'];
  const lines = [];
  const machine =
    cpu.source === 'cgroup' && cpu.machineSeconds !== undefined
      ? `; ${cpuSeconds(cpu.machineSeconds)} machine-wide, PostgreSQL and anything else running included`
      : '';
  const source =
    cpu.source === 'cgroup'
      ? `by every process the run started (its cgroup)${machine}`
      : 'machine-wide (no cgroup could be made: PostgreSQL and anything else running included)';
  const share = cpu.wallSeconds > 0 ? Math.round((100 * total) / (cpu.wallSeconds * cores)) : 0;
  lines.push(
    `[test] CPU: ${cpuSeconds(total)} ${source}, over ${Math.round(cpu.wallSeconds)} s wall: ${share}% of ${cores} cores`,
  );
  const parts = (cpu.perSuite ?? []).filter((p) => p.seconds !== undefined);
  if (parts.length) {
    const counted = parts.reduce((sum, p) => sum + p.seconds, 0);
    for (const p of [...parts].sort((a, b) => b.seconds - a.seconds))
      lines.push(`[test]   ${p.name.padEnd(22)} ${cpuSeconds(p.seconds).padStart(12)}`);
    if (cpu.seconds !== undefined)
      lines.push(
        `[test]   ${'install, build, runner'.padEnd(22)} ${cpuSeconds(Math.max(cpu.seconds - counted, 0)).padStart(12)}`,
      );
  }
  const headroom = CPU_GOAL_SECONDS - total;
  lines.push(
    `[test] CPU goal ≤ ${cpuSeconds(CPU_GOAL_SECONDS)} for a full run: ${headroom >= 0 ? `${cpuSeconds(headroom)} of headroom` : `${cpuSeconds(-headroom)} over`}`,
  );
  return lines;
}

/** The summary that ends a run, its last line `N passed, M failed ...`. */
export function summaryText(results, { subset = [], tookMs = 0, slowest = 10, cpu, cores } = {}) {
  const lines = ['[test] summary'];
  for (const r of results) {
    const skips = r.declaredSkips.length ? `, ${r.declaredSkips.length} skipped (declared)` : '';
    lines.push(
      `[test]   ${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed, ${failedCount(r)} failed${skips}`.padEnd(
        58,
      ) + `${seconds(r.wallMs).padStart(9)}${r.note ? `  (${r.note})` : ''}`,
    );
  }
  const declared = new Map();
  for (const r of results)
    for (const s of r.declaredSkips) declared.set(s.condition, (declared.get(s.condition) ?? 0) + 1);
  if (declared.size)
    lines.push(
      `[test] skipped (declared): ${[...declared].map(([id, n]) => `${n} × ${SKIP_CONDITIONS[id]}`).join(', ')}`,
    );
  const slow = results
    .flatMap((r) => r.durations.map((d) => ({ suite: r.name, ...d })))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, slowest);
  if (slow.length) {
    lines.push(`[test] slowest ${slow.length} tests:`);
    for (const d of slow)
      lines.push(`[test]   ${seconds(d.ms).padStart(8)}  ${d.suite.padEnd(12)} ${d.file} › ${d.title}`);
  }
  lines.push(...costliestFilesLines(results, slowest));
  lines.push(...cpuLines(cpu, { cores }));
  // The failures last, beside the final line: a CI log that keeps only its tail still names them.
  const failed = [];
  for (const r of results)
    for (const s of r.undeclaredSkips)
      failed.push(
        `[test] FAILED ${r.name}: ${s.status} without a declared condition: ${s.file ? `${s.file} › ` : ''}${s.title}`,
      );
  for (const r of results)
    for (const f of r.failures)
      failed.push(
        `[test] FAILED ${r.name}: ${f.file ? `${f.file} › ` : ''}${f.title}${f.why && f.why !== 'failed' ? ` (${f.why})` : ''}`,
      );
  const bySuite = results.filter((r) => failedCount(r) > 0);
  if (bySuite.length)
    lines.push(`[test] failed in: ${bySuite.map((r) => `${r.name} ${failedCount(r)}`).join(', ')}`);
  const shown = 12;
  lines.push(...failed.slice(0, shown));
  if (failed.length > shown)
    lines.push(
      `[test] ... and ${failed.length - shown} more FAILED lines (each suite's output above names them)`,
    );
  lines.push(`[test] took ${(tookMs / 1000).toFixed(0)} s`);
  lines.push(finalLine(results, subset));
  return lines.join('\n');
}
