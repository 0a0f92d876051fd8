// A CPU profile of one running process of the stack over a window of a bench (issue 35: "where the time
// goes"), taken through Node's inspector, so the process runs as deployed until the window and nothing of
// its start-up is in the profile: SIGUSR1 opens the inspector of a Node process on 127.0.0.1:9229 (Node's
// default; one process at a time), the bench asks it over the DevTools protocol to sample its stack every
// `intervalUs`, and at the window's end takes the profile and summarises it by where the time went: each
// package of node_modules, each workspace of ours, Node's internals, the garbage collector, idle.
/* global WebSocket -- Node's own client (Node 22 and later) */
import fs from 'node:fs';
import path from 'node:path';

const INSPECTOR_PORT = 9229;

/** Waits until `fn` returns a value (polled); the inspector opens a moment after the signal. */
async function until(what, fn, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: nothing within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A DevTools protocol session over the inspector's WebSocket (Node's global WebSocket client). */
async function inspectorSession(pid) {
  const target = await until(`the inspector of pid ${pid}`, async () => {
    const list = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json();
    return list.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  });
  const socket = new WebSocket(target);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`the inspector of pid ${pid} refused`)), {
      once: true,
    });
  });
  let next = 0;
  const waiting = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(`${message.error.message} (${pending.method})`));
    else pending.resolve(message.result);
  });
  // A call the inspector never answers (it closed: the process ended, or closed its inspector) fails.
  socket.addEventListener('close', () => {
    for (const pending of waiting.values())
      pending.reject(new Error(`the inspector closed (${pending.method})`));
    waiting.clear();
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject, method });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}

/**
 * Starts sampling process `pid` (a Node process: its inspector is opened by SIGUSR1). Returns `stop()`,
 * which ends the window and gives `{ summary, file }`: the summary of `summariseProfile`, and the profile
 * written to `dir` (open it in Chrome's DevTools, Performance panel, to see the call trees).
 */
export async function profileProcess(pid, { intervalUs = 2000, dir, name = String(pid) } = {}) {
  process.kill(pid, 'SIGUSR1');
  const session = await inspectorSession(pid);
  // The port is Node's one default: make sure it is this process's inspector that answered.
  const { result } = await session.call('Runtime.evaluate', { expression: 'process.pid' });
  if (result.value !== pid) {
    session.close();
    throw new Error(`port ${INSPECTOR_PORT} is the inspector of pid ${result.value}, not of ${pid}`);
  }
  // Enabling the debugger makes V8 give the profiler the scripts compiled before the window (a service's
  // hot code was compiled long before): without it their samples went to a caller (measured: a timer's
  // callback counted as Node's `listOnTimeout`). Disabled again once sampling runs.
  await session.call('Debugger.enable');
  await session.call('Profiler.enable');
  await session.call('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.call('Profiler.start');
  await session.call('Debugger.disable');
  return {
    async stop() {
      const { profile } = await session.call('Profiler.stop');
      // The process closes its inspector, so the port is free for the next profile.
      await session
        .call('Runtime.evaluate', { expression: "process.getBuiltinModule('node:inspector').close()" })
        .catch(() => undefined);
      session.close();
      let file;
      if (dir) {
        fs.mkdirSync(dir, { recursive: true });
        file = path.join(dir, `${name}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
      }
      return { summary: summariseProfile(profile), file };
    },
  };
}

/** Where a function's code lives: a package of node_modules, a workspace of ours, Node itself, or V8's. */
export function placeOf(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) {
    // V8's own entries: (garbage collector), (idle), (program), (root).
    if (functionName.startsWith('(')) return functionName;
    return '(native)';
  }
  if (url.startsWith('node:')) return 'node';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  // Our workspaces: services/<name>/dist/..., gateway/dist/..., proto/dist/...
  const ours = /\/(services\/[^/]+|gateway|proto)\/dist\//.exec(url);
  return ours ? ours[1] : url.replace(/^file:\/\//, '');
}

/** Where a frame's code is by default: its place (`placeOf`), its function's name and line. */
const locateByUrl = (frame) => ({
  place: placeOf(frame),
  name: frame.functionName,
  line: frame.url ? frame.lineNumber + 1 : undefined,
});

/**
 * Self time of the samples of one profile or several (windows of one kind, e.g. each of a page's
 * keystrokes) by place and by function, in ms and in shares of the busy time (every sample but idle's).
 * `locate(callFrame)` gives a frame's `{ place, name, line }` (by default from its URL: `placeOf`; a page's
 * bundle is located through its source map, bench/page-profile.mjs). `top` functions are kept.
 */
export function summariseProfile(profiles, { top = 15, locate = locateByUrl } = {}) {
  const selfUs = new Map();
  for (const profile of [profiles].flat()) {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const { samples = [], timeDeltas = [] } = profile;
    // A sample's time is the delta to the next sample (the last one's: the profile's end).
    for (let k = 0; k < samples.length; k++) {
      const next = k + 1 < timeDeltas.length ? timeDeltas[k + 1] : 0;
      const frame = nodes.get(samples[k]).callFrame;
      selfUs.set(frame, (selfUs.get(frame) ?? 0) + Math.max(0, next));
    }
  }
  const byPlace = new Map();
  const byFunction = new Map();
  let totalUs = 0;
  let idleUs = 0;
  for (const [frame, us] of selfUs) {
    const { place, name, line } = locate(frame);
    totalUs += us;
    if (place === '(idle)') idleUs += us;
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const key =
      line !== undefined
        ? `${name || '(anonymous)'} ${place}:${line}`
        : place === '(native)'
          ? `${name} (native)`
          : place;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const rows = (map, n) =>
    [...map]
      .filter(([key]) => key !== '(idle)' && !key.startsWith('(idle) '))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => ({ key, ms: +(us / 1000).toFixed(1), share: +(us / busyUs).toFixed(3) }));
  return {
    window_ms: +(totalUs / 1000).toFixed(1),
    busy_ms: +(busyUs / 1000).toFixed(1),
    busy_share: totalUs ? +(busyUs / totalUs).toFixed(3) : 0,
    places: rows(byPlace, 12),
    functions: rows(byFunction, top),
  };
}

/** The summary as lines for a bench's log. */
export const profileLines = (summary) => [
  `busy ${summary.busy_ms} ms of ${summary.window_ms} (${Math.round(summary.busy_share * 100)}%); by place: ${summary.places
    .map((p) => `${p.key} ${Math.round(p.share * 100)}%`)
    .join(', ')}`,
  ...summary.functions.map((f) => `  ${String(Math.round(f.share * 1000) / 10).padStart(5)}%  ${f.key}`),
];
