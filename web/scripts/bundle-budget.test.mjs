import { describe, expect, it } from 'vitest';
import { budgetsFor, chunksOfPage, measurePages, overBudget } from './bundle-budget.mjs';

// A manifest as vite writes it: the entry imports two vendor chunks statically and the screens dynamically;
// the dashboard screen imports a shared chunk the report screen imports too, and lazily a tab.
const MANIFEST = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    imports: ['_vendor-react-b.js', '_vendor-mantine-c.js'],
    dynamicImports: ['src/features/staff-dashboard/routes/StaffDashboardRoute.tsx'],
    css: ['assets/index-a.css'],
  },
  '_vendor-react-b.js': { file: 'assets/vendor-react-b.js' },
  '_vendor-mantine-c.js': { file: 'assets/vendor-mantine-c.js', imports: ['_vendor-react-b.js'] },
  '_shared-d.js': { file: 'assets/shared-d.js', imports: ['_vendor-react-b.js'] },
  'src/features/staff-dashboard/routes/StaffDashboardRoute.tsx': {
    file: 'assets/StaffDashboardRoute-e.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared-d.js'],
    dynamicImports: ['src/features/stocks/tab.tsx'],
    css: ['assets/StaffDashboardRoute-e.css'],
  },
  'src/features/stocks/tab.tsx': { file: 'assets/tab-f.js', isDynamicEntry: true },
  'src/features/reports/routes/ReportRoute.tsx': {
    file: 'assets/ReportRoute-g.js',
    isDynamicEntry: true,
    imports: ['_shared-d.js', '_vendor-highcharts-h.js'],
  },
  '_vendor-highcharts-h.js': { file: 'assets/vendor-highcharts-h.js' },
};

const SIZES = {
  'assets/index-a.js': 1000,
  'assets/vendor-react-b.js': 2000,
  'assets/vendor-mantine-c.js': 3000,
  'assets/shared-d.js': 100,
  'assets/StaffDashboardRoute-e.js': 500,
  'assets/tab-f.js': 7000,
  'assets/ReportRoute-g.js': 400,
  'assets/vendor-highcharts-h.js': 9000,
};
const sizeOf = (file) => SIZES[file];

const PAGES = {
  '/login': { modules: [], budgetGzipBytes: 6000 },
  '/ (staff dashboard)': {
    modules: ['src/features/staff-dashboard/routes/StaffDashboardRoute.tsx'],
    budgetGzipBytes: 6600,
  },
  '/report/:guid': { modules: ['src/features/reports/routes/ReportRoute.tsx'], budgetGzipBytes: 15_000 },
};

describe('bundle budget', () => {
  it('counts the entry and its static imports for a page with no route module, each chunk once', () => {
    expect(chunksOfPage(MANIFEST, [])).toEqual([
      'assets/index-a.js',
      'assets/vendor-mantine-c.js',
      'assets/vendor-react-b.js',
    ]);
  });

  it("adds a route's chunk and its static imports, but not its lazy imports or other routes", () => {
    expect(chunksOfPage(MANIFEST, ['src/features/staff-dashboard/routes/StaffDashboardRoute.tsx'])).toEqual([
      'assets/StaffDashboardRoute-e.js',
      'assets/index-a.js',
      'assets/shared-d.js',
      'assets/vendor-mantine-c.js',
      'assets/vendor-react-b.js',
    ]);
  });

  it('refuses a route module the manifest does not have, and a manifest without one entry', () => {
    expect(() => chunksOfPage(MANIFEST, ['src/features/gone/Route.tsx'])).toThrow(
      /src\/features\/gone\/Route.tsx is not in vite's manifest/,
    );
    expect(() => chunksOfPage({ a: { file: 'a.js' } }, [])).toThrow(/expected one entry/);
  });

  it('sums the gzip sizes per page and finds the pages over their budget', () => {
    const measured = measurePages(MANIFEST, PAGES, sizeOf);
    expect(measured.map((m) => [m.page, m.gzipBytes])).toEqual([
      ['/login', 6000],
      ['/ (staff dashboard)', 6600],
      ['/report/:guid', 15_500],
    ]);
    // At the budget passes; one byte over fails.
    expect(overBudget(measured, PAGES).map((m) => [m.page, m.gzipBytes, m.budget])).toEqual([
      ['/report/:guid', 15_500, 15_000],
    ]);
    // A page without a budget is over it.
    expect(overBudget(measured, { ...PAGES, '/login': { modules: [] } }).map((m) => m.page)).toContain(
      '/login',
    );
  });

  it('sets budgets at the measured size plus the headroom, rounded up to 1,000 bytes, keeping the modules', () => {
    const measured = measurePages(MANIFEST, PAGES, sizeOf);
    expect(budgetsFor(measured, PAGES, 0.1)).toEqual({
      '/login': { modules: [], budgetGzipBytes: 7000 },
      '/ (staff dashboard)': {
        modules: ['src/features/staff-dashboard/routes/StaffDashboardRoute.tsx'],
        budgetGzipBytes: 8000,
      },
      '/report/:guid': { modules: ['src/features/reports/routes/ReportRoute.tsx'], budgetGzipBytes: 18_000 },
    });
  });
});
