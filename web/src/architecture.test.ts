import { describe, expect, it } from 'vitest';

// The web/ import rules (bulletproof-react): a feature never imports another feature, and imports only
// shared code (lib/, components/, api/, app/hooks); shared code never imports a feature; app/ composes
// features (app/tabs.ts registers their stock page tabs). Checked here because the repository's lint
// config has no boundary rules yet.
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./architecture.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** src/-relative path without the leading './'. */
const files = Object.entries(sources).map(([path, text]) => ({ path: path.slice(2), text }));

function importsOf(text: string): string[] {
  // `from '…'`, `import('…')` and side-effect imports (`import '…'`).
  const pattern = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
}

function normalise(segments: string[]): string {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}

/** The src/-relative path an import points at, or undefined for a package. */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('@/')) return specifier.slice(2);
  if (specifier.startsWith('.')) return normalise([...file.split('/').slice(0, -1), ...specifier.split('/')]);
  return undefined;
}

function featureOf(path: string | undefined): string | undefined {
  return path ? /^features\/([^/]+)/.exec(path)?.[1] : undefined;
}

/** Test files and a feature's test helpers may also use the test harness (src/test/). */
const isTestCode = (path: string): boolean =>
  /\.test\.tsx?$/.test(path) || /^features\/[^/]+\/test\//.test(path);

function violations(filter: (file: string, target: string) => boolean): string[] {
  return files.flatMap(({ path, text }) =>
    importsOf(text)
      .filter((specifier) => {
        const target = targetOf(path, specifier);
        return target !== undefined && filter(path, target);
      })
      .map((specifier) => `${path} -> ${specifier}`),
  );
}

describe('import boundaries', () => {
  it('sees the source tree', () => {
    expect(files.some(({ path }) => path.startsWith('features/auth/'))).toBe(true);
  });

  it('keeps features from importing each other', () => {
    expect(
      violations((file, target) => {
        const own = featureOf(file);
        const other = featureOf(target);
        return own !== undefined && other !== undefined && other !== own;
      }),
    ).toEqual([]);
  });

  it('lets features import only lib, components, api and app/hooks besides their own files', () => {
    expect(
      violations((file, target) => {
        const own = featureOf(file);
        if (own === undefined || featureOf(target) === own) return false;
        if (/^(lib|components|api)\//.test(target) || target === 'app/hooks') return false;
        return !(isTestCode(file) && target.startsWith('test/'));
      }),
    ).toEqual([]);
  });

  it('keeps shared code free of features', () => {
    expect(
      violations((file, target) => /^(api|lib|components)\//.test(file) && featureOf(target) !== undefined),
    ).toEqual([]);
  });
});
