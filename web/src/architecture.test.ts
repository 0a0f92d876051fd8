import { describe, expect, it } from 'vitest';

// The web/ import rules (bulletproof-react): a feature never imports another feature, and shared code
// (api/, lib/, components/) never imports a feature; app/ composes features. Checked here because the
// repository's lint config has no boundary rules yet.
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./architecture.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** src/-relative path without the leading './'. */
const files = Object.entries(sources).map(([path, text]) => ({ path: path.slice(2), text }));

function importsOf(text: string): string[] {
  const pattern = /(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g;
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

  it('keeps shared code free of features', () => {
    expect(
      violations((file, target) => /^(api|lib|components)\//.test(file) && featureOf(target) !== undefined),
    ).toEqual([]);
  });
});
