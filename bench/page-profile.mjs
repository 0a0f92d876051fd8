// A CPU profile of the web app in Chromium over short windows of a browser bench (a filter keystroke: issue
// 35's "fixed per-keystroke work"), through the page's DevTools protocol session, summarised by the code
// the bundle was built from: web/dist's source maps (vite's `build.sourcemap`) turn each frame of a bundle
// into its package (`@mantine/core`, `react-dom`) or our folder (`web/src/features/staff-dashboard`) and
// its original function name. Style, layout and paint are Chromium's own work, counted as `(program)`.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { placeOf, profileLines, summariseProfile } from './profile.mjs';
import { breakdownLine, mainThreadBreakdown, TIMELINE_CATEGORIES } from './page-trace.mjs';

const require = createRequire(import.meta.url);
const { SourceMapConsumer } = require('source-map-js');
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist');

/** Where an original source of the bundle lives: a package of node_modules, or a folder of web/src. */
export function placeOfSource(source) {
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = source.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const web = /(?:^|\/)(src\/.*)\/[^/]+$/.exec(source);
  return web ? `web/${web[1]}` : source;
}

/**
 * `locate` for summariseProfile over the web app's frames: a frame of a bundle under web/dist with its
 * source map is located at its original source; any other frame by its URL.
 */
export function sourceMappedLocate(distDir = WEB_DIST) {
  const consumers = new Map();
  const consumerOf = (url) => {
    if (!consumers.has(url)) {
      let consumer = null;
      try {
        const file = path.join(distDir, new URL(url).pathname);
        if (file.startsWith(distDir) && fs.existsSync(`${file}.map`))
          consumer = new SourceMapConsumer(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
      } catch {
        consumer = null;
      }
      consumers.set(url, consumer);
    }
    return consumers.get(url);
  };
  return (frame) => {
    // A frame without a position (-1: a script's top level as Chromium reports it) keeps its URL's place.
    const consumer = frame.url.startsWith('http') && frame.lineNumber >= 0 ? consumerOf(frame.url) : null;
    const original =
      consumer?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber }) ?? {};
    if (!original.source)
      return {
        place: placeOf(frame),
        name: frame.functionName,
        line: frame.url ? frame.lineNumber + 1 : undefined,
      };
    return {
      place: placeOfSource(original.source),
      name: original.name ?? frame.functionName,
      line: original.line,
    };
  };
}

/**
 * A profiler of a Playwright page: `start()` before a window, `stop()` after it (its profile kept); then
 * `summary()` over every window, located through the source maps. `intervalUs`: the sampling interval
 * (a keystroke lasts tens of ms: 100 µs gives hundreds of samples each).
 */
async function pageProfiler(page, { intervalUs = 100, distDir } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  const profiles = [];
  return {
    start: () => cdp.send('Profiler.start'),
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      profiles.push(profile);
    },
    summary: (options = {}) =>
      summariseProfile(profiles, { ...options, locate: sourceMappedLocate(distDir) }),
    detach: () => cdp.detach().catch(() => {}),
  };
}

/**
 * Where the time of a page's window goes (a filter keystroke, a list's load): `windows` windows profiled
 * (JavaScript by source), then as many traced (the main thread's style, layout and paint beside its
 * scripts). Each window: `prepare()` (untimed), the window over `act()`, then `reset()` (untimed). Taken
 * after a bench's timed runs, which the profiler would slow. Returns `{ profile, trace }` per window.
 */
export async function whereTimeGoes(
  page,
  { windows = 10, prepare = async () => {}, act, reset = async () => {} },
) {
  if (windows <= 0) return undefined;
  const profiler = await pageProfiler(page);
  for (let k = 0; k < windows; k++) {
    await prepare();
    await profiler.start();
    await act();
    await profiler.stop();
    await reset();
  }
  await profiler.detach();
  const browser = page.context().browser();
  const events = [];
  for (let k = 0; k < windows; k++) {
    await prepare();
    await browser.startTracing(page, { categories: TIMELINE_CATEGORIES });
    await act();
    const trace = JSON.parse(String(await browser.stopTracing()));
    events.push(...(trace.traceEvents ?? trace));
    await reset();
  }
  return { profile: profiler.summary(), trace: mainThreadBreakdown({ traceEvents: events }, { windows }) };
}

/** whereTimeGoes' result in a bench's log, each line headed by `what`. */
export function logWhere(what, { profile, trace }) {
  for (const line of profileLines(profile)) console.log(`  ${what} profile: ${line}`);
  console.log(`  ${what} trace, per window: ${breakdownLine(trace)}`);
}
