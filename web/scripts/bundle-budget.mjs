// The bundle budget (issue 35): the JavaScript a first visit to each budgeted page downloads, gzipped,
// against the budget committed in bundle-budget.json; run by `npm run build` after vite build, and failing
// the build when a page is over its budget.
//   node scripts/bundle-budget.mjs            check web/dist against the budgets
//   node scripts/bundle-budget.mjs --update   set every budget to its current size plus the headroom
// A page's JavaScript is the entry chunk, the route modules it names (the lazy screens the router loads
// for it) and every chunk those import statically, each counted once (vite's manifest, dist/.vite).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUDGET_FILE = path.join(WEB, 'bundle-budget.json');
const DIST = path.join(WEB, 'dist');
const MANIFEST = path.join(DIST, '.vite', 'manifest.json');

/**
 * The chunk files a page loads: the manifest's entry and each of `modules` (source paths, as the manifest
 * keys them), with everything they import statically. Dynamic imports are not followed: they load later,
 * on a user's action, or are other routes. A module missing from the manifest is an error (a renamed
 * route would otherwise leave its page unmeasured).
 */
export function chunksOfPage(manifest, modules) {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in vite's manifest: is it still a lazy route module?`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entries[0][0]);
  for (const module of modules) visit(module);
  return [...files].filter((file) => file.endsWith('.js')).sort();
}

/** Each page's gzipped JavaScript: `sizeOf(file)` is a chunk's gzip size in bytes. */
export function measurePages(manifest, pages, sizeOf) {
  return Object.entries(pages).map(([page, { modules }]) => {
    const files = chunksOfPage(manifest, modules);
    return { page, files, gzipBytes: files.reduce((sum, file) => sum + sizeOf(file), 0) };
  });
}

/** The pages over their budget (a page without one is over), each with its size and budget. */
export function overBudget(measured, pages) {
  return measured
    .map((m) => ({ ...m, budget: pages[m.page]?.budgetGzipBytes ?? 0 }))
    .filter((m) => m.gzipBytes > m.budget);
}

/** Budgets at the measured sizes plus `headroom` (0.1: 10 %), rounded up to the next 1,000 bytes. */
export function budgetsFor(measured, pages, headroom) {
  return Object.fromEntries(
    measured.map((m) => [
      m.page,
      { ...pages[m.page], budgetGzipBytes: Math.ceil((m.gzipBytes * (1 + headroom)) / 1000) * 1000 },
    ]),
  );
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function main() {
  if (!fs.existsSync(MANIFEST)) {
    console.error(`bundle budget: no ${path.relative(WEB, MANIFEST)}; run vite build first`);
    process.exit(1);
  }
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  const config = JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8'));
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(fs.readFileSync(path.join(DIST, file))).length);
    return sizes.get(file);
  };
  const measured = measurePages(manifest, config.pages, sizeOf);
  if (process.argv.includes('--update')) {
    config.pages = budgetsFor(measured, config.pages, config.headroom);
    fs.writeFileSync(BUDGET_FILE, `${JSON.stringify(config, null, 2)}\n`);
  }
  for (const m of measured) {
    const budget = config.pages[m.page].budgetGzipBytes;
    console.log(
      `bundle budget: ${m.page}: ${kb(m.gzipBytes)} gzip in ${m.files.length} chunks, budget ${kb(budget)} (${Math.round((m.gzipBytes / budget) * 100)} %)`,
    );
  }
  const over = overBudget(measured, config.pages);
  for (const m of over) {
    console.error(
      `bundle budget: ${m.page} ships ${kb(m.gzipBytes)} of JavaScript (gzip), over its budget of ${kb(m.budget)} in web/bundle-budget.json: ${m.files.join(', ')}`,
    );
  }
  if (over.length > 0) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
