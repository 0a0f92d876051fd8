// Every bench's figures in one shape, so `make bench` can end with one table of them all and hold their
// ratios to the ones committed in bench/README.md (the regression guard).
//
// A figure: { bench, figure, value, unit, goal, met, ratio?, better? }
//   goal   'p95 ≤ 250 ms' style text, or null when the figure is only shown;
//   met    true / false, or null without a goal;
//   ratio  the figure against the physical limit measured in the same run (what the guard compares:
//          absolute times swing with the machine, a ratio of two figures taken side by side much less);
//   better 'lower' or 'higher': which way the ratio improves.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
export const README = path.join(ROOT, 'bench', 'README.md');

/** How far a ratio may move the wrong way from the committed one before `make bench` fails. */
export const REGRESSION_TOLERANCE = 0.25;

const START = '<!-- figures:start -->';
const END = '<!-- figures:end -->';

const round = (x) => (Math.abs(x) >= 100 ? Math.round(x) : +x.toPrecision(3));

/**
 * One figure. `goal` is { max } or { min } (in `unit`), or omitted; `ratio` is { value, better } or omitted.
 */
export function figure(bench, name, value, unit, { goal, ratio } = {}) {
  const f = { bench, figure: name, value: round(value), unit };
  const withUnit = (x) => (unit === '×' ? `${x}×` : `${x} ${unit}`.trim());
  if (goal?.max !== undefined) Object.assign(f, { goal: `≤ ${withUnit(goal.max)}`, met: value <= goal.max });
  else if (goal?.min !== undefined)
    Object.assign(f, { goal: `≥ ${withUnit(goal.min)}`, met: value >= goal.min });
  else Object.assign(f, { goal: null, met: null });
  if (ratio && Number.isFinite(ratio.value))
    Object.assign(f, { ratio: round(ratio.value), better: ratio.better });
  return f;
}

/** Writes `bench/results/<name>.json`: the bench's own result with its figures beside it. */
export function writeResult(name, result, figures) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ ...result, figures }, null, 2));
  return file;
}

/** The figures of a result file written after `since` (ms), or null (the bench died before writing). */
export function readFigures(name, since = 0) {
  const file = path.join(RESULTS_DIR, `${name}.json`);
  if (!fs.existsSync(file) || fs.statSync(file).mtimeMs < since) return null;
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  return Array.isArray(doc.figures) ? doc.figures : null;
}

const key = (f) => `${f.bench} · ${f.figure}`;
const cell = (s) => String(s).replace(/\|/g, '\\|');
const num = (x) => (typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: 3 }) : '');

/** The markdown table of every figure: bench, figure, value, ratio, goal, met / not met. */
export function figuresTable(figures) {
  const rows = figures.map((f) => [
    f.bench,
    f.figure,
    f.unit === '×' ? `${num(f.value)}×` : `${num(f.value)} ${f.unit}`.trim(),
    f.ratio === undefined ? '' : `${num(f.ratio)}× (${f.better} is better)`,
    f.goal ?? '',
    f.met === null || f.met === undefined ? '' : f.met ? 'met' : 'not met',
  ]);
  const head = ['bench', 'figure', 'value', 'ratio to the limit', 'goal', ''];
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n');
}

/** The ratios of the table committed in README.md between the figures markers: key -> ratio. */
export function committedRatios(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  const ratios = new Map();
  if (start < 0 || end < start) return ratios;
  for (const line of readme.slice(start, end).split('\n')) {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    if (cells.length < 4 || cells[0] === 'bench' || cells[0].startsWith('---')) continue;
    const m = /^([\d,.]+)×/.exec(cells[3]);
    if (m) ratios.set(`${cells[0]} · ${cells[1]}`, Number(m[1].replace(/,/g, '')));
  }
  return ratios;
}

/**
 * The figures whose ratio moved the wrong way by more than REGRESSION_TOLERANCE from the committed one:
 * [{ key, committed, now, change }]. A figure with no committed ratio is new, not a regression.
 */
export function regressions(figures, committed, tolerance = REGRESSION_TOLERANCE) {
  const out = [];
  for (const f of figures) {
    if (f.ratio === undefined) continue;
    const was = committed.get(key(f));
    if (!was) continue;
    const worse = f.better === 'higher' ? f.ratio < was * (1 - tolerance) : f.ratio > was * (1 + tolerance);
    if (worse) out.push({ key: key(f), committed: was, now: f.ratio, change: +(f.ratio / was).toFixed(2) });
  }
  return out;
}

/** The rows of the committed table, as lines, by bench. */
function committedRows(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  const rows = [];
  if (start < 0 || end < start) return rows;
  for (const line of readme.slice(start, end).split('\n')) {
    const bench = line.split(/(?<!\\)\|/)[1]?.trim();
    if (line.startsWith('|') && bench && bench !== 'bench' && !bench.startsWith('---'))
      rows.push({ bench, line });
  }
  return rows;
}

/**
 * README.md with this run's figures in the committed table (or a new one at the end): the rows of the
 * benches that ran replaced, the other benches' rows kept, so one bench can be recorded alone.
 */
export function withFiguresTable(readme, figures, heading) {
  const ran = new Set(figures.map((f) => f.bench));
  const kept = committedRows(readme).filter((r) => !ran.has(r.bench));
  const table = figuresTable(figures).split('\n');
  const lines = [...table.slice(0, 2), ...kept.map((r) => r.line), ...table.slice(2)];
  const block = `${START}\n${heading}\n\n${lines.join('\n')}\n${END}`;
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start >= 0 && end > start) return readme.slice(0, start) + block + readme.slice(end + END.length);
  return `${readme.trimEnd()}\n\n## Every figure, and the regression guard\n\n${block}\n`;
}
