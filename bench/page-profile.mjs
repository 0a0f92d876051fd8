// A CPU profile of the web app in Chromium over short windows of a browser bench (a filter keystroke: issue
// 35's "fixed per-keystroke work"), through the page's DevTools protocol session, summarised by the code
// the bundle was built from: web/dist's source maps (vite's `build.sourcemap`) turn each frame of a bundle
// into its package (`@mantine/core`, `react-dom`) or our folder (`web/src/features/staff-dashboard`) and
// its original function name. Style, layout and paint are Chromium's own work, counted as `(program)`.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { placeOf, summariseProfile } from './profile.mjs';

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
    const consumer = frame.url.startsWith('http') ? consumerOf(frame.url) : null;
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
export async function pageProfiler(page, { intervalUs = 100, distDir } = {}) {
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
    profiles,
    detach: () => cdp.detach().catch(() => {}),
  };
}
