// `make test-changed`: which suites and spec files a working tree's changes touch. `planChanged` is pure
// (scripts/test/test-changed.test.mjs proves the mapping); `changedFiles` asks git. Conservative where a
// change reaches everything: proto/, the platform and the workspace configs run every unit and integration test.
import { execFileSync } from 'node:child_process';

/** Every server-side config whose change reaches every jest project. */
const EVERYTHING_SERVER =
  /^(package\.json|package-lock\.json|jest\.preset\.js|jest\.config\.js|jest\.int\.config\.js|tsconfig[^/]*\.json|services\/manifest\.json|scripts\/manifest\.(cjs|mjs))$/;

/**
 * The plan for the changed files (paths relative to the repository root):
 * `{ suites, unit, web, integration, browser, why }`. `unit`/`web` are `{ all, related }` (related: the
 * changed source files whose tests to find), `integration`/`browser` are `{ all, specs }` (path patterns).
 * `why` is one line per changed file: what it made the plan run.
 */
export function planChanged(files) {
  const plan = {
    unit: { all: false, related: [] },
    web: { all: false, related: [] },
    integration: { all: false, specs: [] },
    browser: { all: false, specs: [] },
    infra: false,
    why: [],
  };
  const add = (suite, what) => {
    if (what === 'all') plan[suite].all = true;
    else if (suite === 'unit' || suite === 'web') plan[suite].related.push(what.related);
    else plan[suite].specs.push(what.spec);
  };
  for (const file of files) {
    const because = [];
    const all = (suite) => {
      add(suite, 'all');
      because.push(`every ${suite} test`);
    };
    let m;
    if (file === '.node-version') {
      // Another Node runs every test.
      for (const suite of ['unit', 'web', 'integration', 'browser']) all(suite);
      plan.infra = true;
      because.push('the infra suite');
    } else if (EVERYTHING_SERVER.test(file) || /^(proto|services\/platform)\//.test(file)) {
      all('unit');
      all('integration');
      if (file.startsWith('proto/')) {
        add('web', { related: `../${file}` });
        because.push('web tests that import it');
      }
      // The dependency audit (scripts/test/npm-audit.test.mjs) reads the lockfile.
      if (file.startsWith('scripts/') || /^package(-lock)?\.json$/.test(file)) {
        plan.infra = true;
        because.push('the infra suite');
      }
    } else if ((m = /^(services\/[^/]+|gateway)\/test\/(.+)$/.exec(file))) {
      const spec = m[2].endsWith('.int-spec.ts') ? file : `${m[1]}/test/`;
      add('integration', { spec });
      because.push(spec === file ? 'this integration spec' : `the integration specs of ${m[1]}`);
    } else if ((m = /^(services\/[^/]+|gateway)\/src\//.exec(file))) {
      add('unit', { related: file });
      add('integration', { spec: `${m[1]}/test/` });
      because.push(`unit tests related to it`, `the integration specs of ${m[1]}`);
      // The gateway's integration specs run the services as processes: a service's change reaches them.
      if (m[1] !== 'gateway') {
        add('integration', { spec: 'gateway/test/' });
        because.push('the gateway integration specs (they run it)');
      }
    } else if ((m = /^(services\/[^/]+|gateway)\//.exec(file))) {
      all('unit');
      add('integration', { spec: `${m[1]}/test/` });
      because.push(`the integration specs of ${m[1]}`);
    } else if (file.startsWith('web/src/')) {
      add('web', { related: file.slice('web/'.length) });
      because.push('web tests related to it (vitest related)');
    } else if (file.startsWith('web/')) all('web');
    else if ((m = /^e2e\/tests\/(.+)\.spec\.ts$/.exec(file))) {
      add('browser', { spec: `${m[1]}.spec.ts` });
      because.push('this browser spec');
    } else if (file.startsWith('e2e/')) all('browser');
    else if (file === 'scripts/stack.mjs') {
      plan.infra = true;
      all('browser');
      because.unshift('the infra suite');
    } else if (
      /^(scripts|deploy|security|bench)\//.test(file) ||
      file === 'Makefile' ||
      file === 'eslint.config.mjs'
    ) {
      plan.infra = true;
      because.push(
        'the infra suite (node --test deploy/local/test/*.test.mjs scripts/test/*.test.mjs bench/test/*.test.mjs)',
      );
    }
    plan.why.push(`${file} → ${because.length ? because.join(', ') : 'lint only'}`);
  }
  for (const suite of ['unit', 'web'])
    plan[suite].related = plan[suite].all ? [] : [...new Set(plan[suite].related)];
  for (const suite of ['integration', 'browser']) {
    const specs = plan[suite].all ? [] : [...new Set(plan[suite].specs)];
    // A folder pattern covers the specs inside it.
    plan[suite].specs = specs.filter(
      (s) => !specs.some((d) => d !== s && d.endsWith('/') && s.startsWith(d)),
    );
  }
  const wants = (s) => plan[s].all || (plan[s].related ?? plan[s].specs).length > 0;
  plan.suites = [
    'lint',
    ...(wants('unit') ? ['unit'] : []),
    ...(wants('web') ? ['web'] : []),
    ...(plan.infra ? ['infra'] : []),
    ...(wants('integration') ? ['integration'] : []),
    ...(wants('browser') ? ['browser'] : []),
  ];
  return plan;
}

/** The plan as the lines `make test-changed` prints before it runs. */
export function planText(plan, base) {
  const what = (s) =>
    plan[s].all ? 'all' : [...(plan[s].related ?? []), ...(plan[s].specs ?? [])].join(' ') || undefined;
  return [
    `[test] changed files (against ${base}, plus uncommitted and untracked):`,
    ...(plan.why.length ? plan.why.map((l) => `[test]   ${l}`) : ['[test]   (none)']),
    `[test] runs: ${plan.suites
      .map((s) => (['unit', 'web', 'integration', 'browser'].includes(s) ? `${s} (${what(s)})` : s))
      .join(', ')}`,
  ].join('\n');
}

const git = (root, args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** The files changed against `git merge-base HEAD origin/main` (else HEAD), uncommitted and untracked included. */
export function changedFiles(root) {
  let base = 'HEAD';
  try {
    base = git(root, ['merge-base', 'HEAD', 'origin/main']).trim() || 'HEAD';
  } catch {
    base = 'HEAD';
  }
  const lines = (text) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  const files = [
    ...lines(git(root, ['diff', '--name-only', base])),
    ...lines(git(root, ['ls-files', '--others', '--exclude-standard'])),
  ];
  return {
    base: base === 'HEAD' ? 'HEAD' : `merge-base with origin/main (${base.slice(0, 10)})`,
    files: [...new Set(files)].sort(),
  };
}
