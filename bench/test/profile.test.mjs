// The CPU profile a bench takes of a running process (bench/profile.mjs).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { placeOf, profileProcess, summariseProfile } from '../profile.mjs';
import { placeOfSource, sourceMappedLocate } from '../page-profile.mjs';
import { mainThreadBreakdown } from '../page-trace.mjs';

const require = createRequire(import.meta.url);
const { SourceMapGenerator } = require('source-map-js');

test('a function is placed in its package, our workspace, Node or V8', () => {
  const at = (url, functionName = 'f') => placeOf({ url, functionName });
  assert.equal(at('file:///srv/node_modules/kafkajs/src/consumer/runner.js'), 'kafkajs');
  assert.equal(at('file:///srv/node_modules/@nestjs/core/router/x.js'), '@nestjs/core');
  assert.equal(at('file:///srv/node_modules/a/node_modules/pg-protocol/dist/parser.js'), 'pg-protocol');
  assert.equal(
    at('file:///srv/services/email-marketing/dist/sending/deliver-batch.js'),
    'services/email-marketing',
  );
  assert.equal(at('file:///srv/proto/dist/index.js'), 'proto');
  assert.equal(at('node:internal/streams/writable'), 'node');
  assert.equal(at('', '(garbage collector)'), '(garbage collector)');
  assert.equal(at('', 'writev'), '(native)');
});

test("a profile's self time is summed by place and function, shares of the busy time", () => {
  const frame = (functionName, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('parse', 'file:///x/node_modules/pg-protocol/dist/parser.js', 9) },
      { id: 4, callFrame: frame('render', 'file:///x/services/email-marketing/dist/mail.js', 0) },
    ],
    // Each sample lasts until the next: 3 for 3 ms, 4 for 1 ms, idle for 4 ms, the last one for nothing.
    samples: [3, 4, 2, 3],
    timeDeltas: [0, 3000, 1000, 4000],
  };
  const summary = summariseProfile(profile);
  assert.equal(summary.window_ms, 8);
  assert.equal(summary.busy_ms, 4);
  assert.deepEqual(summary.places, [
    { key: 'pg-protocol', ms: 3, share: 0.75 },
    { key: 'services/email-marketing', ms: 1, share: 0.25 },
  ]);
  assert.deepEqual(summary.functions[0], { key: 'parse pg-protocol:10', ms: 3, share: 0.75 });
});

test('a running process is profiled over a window through its inspector, opened by a signal', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-profile-'));
  const script = path.join(dir, 'busy.js');
  // Busy 40 ms in every 50 in this script's code (V8 may inline the one function into the other); idle the rest.
  fs.writeFileSync(
    script,
    [
      'function spin() { let x = 0; const t = Date.now(); while (Date.now() - t < 40) for (let i = 0; i < 1000; i++) x += Math.sqrt(i); return x; }',
      'setInterval(() => spin(), 50);',
      "console.log('ready');",
    ].join('\n'),
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    // Signalled only once Node runs the script: before, SIGUSR1 would end the process.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const profiling = await profileProcess(child.pid, { dir, name: 'busy' });
    // The window being measured (not a wait for an event): the child is busy 40 ms in every 50 throughout,
    // so the shares asserted below hold however slow the machine is.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { summary, file } = await profiling.stop();
    assert.ok(fs.statSync(file).size > 0, 'the profile is written');
    assert.ok(summary.busy_ms > 0);
    assert.match(summary.functions[0].key, /busy\.js:\d+$/);
    assert.ok(summary.functions[0].share > 0.5, JSON.stringify(summary.functions.slice(0, 3)));
  } finally {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a page's frames are located at the sources its bundle was built from, through the source map", () => {
  assert.equal(
    placeOfSource('../../node_modules/@mantine/core/esm/components/Input/Input.mjs'),
    '@mantine/core',
  );
  assert.equal(placeOfSource('../node_modules/react-dom/cjs/react-dom.production.js'), 'react-dom');
  assert.equal(
    placeOfSource('../../src/features/staff-dashboard/routes/StaffDashboardRoute.tsx'),
    'web/src/features/staff-dashboard/routes',
  );
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-dist-'));
  try {
    // A bundle of one line: the function at column 10 is react-dom's, the one at column 40 ours.
    const map = new SourceMapGenerator({ file: 'index-abc.js' });
    map.addMapping({
      generated: { line: 1, column: 10 },
      original: { line: 120, column: 2 },
      source: '../node_modules/react-dom/cjs/react-dom.production.js',
      name: 'commitRoot',
    });
    map.addMapping({
      generated: { line: 1, column: 40 },
      original: { line: 7, column: 0 },
      source: '../src/lib/textFilter.ts',
      name: 'textFilter',
    });
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js.map'), map.toString());
    const locate = sourceMappedLocate(dist);
    const frame = (columnNumber, url = 'http://127.0.0.1:3600/assets/index-abc.js') => ({
      functionName: 'a',
      url,
      lineNumber: 0,
      columnNumber,
    });
    assert.deepEqual(locate(frame(10)), { place: 'react-dom', name: 'commitRoot', line: 120 });
    assert.deepEqual(locate(frame(40)), { place: 'web/src/lib', name: 'textFilter', line: 7 });
    // A bundle without its map, and Chromium's own entries, by their URL.
    assert.equal(locate(frame(3, 'http://127.0.0.1:3600/assets/other.js')).line, 1);
    assert.equal(locate({ ...frame(0), lineNumber: -1 }).place, 'http://127.0.0.1:3600/assets/index-abc.js');
    assert.equal(
      locate({ functionName: '(program)', url: '', lineNumber: -1, columnNumber: -1 }).place,
      '(program)',
    );
  } finally {
    fs.rmSync(dist, { recursive: true, force: true });
  }
});

test("a trace's main-thread events are summed by self time, nested events taken out of their parent", () => {
  const X = (name, ts, dur, tid = 1) => ({ ph: 'X', pid: 7, tid, name, ts, dur });
  const trace = {
    traceEvents: [
      { ph: 'M', pid: 7, tid: 1, name: 'thread_name', args: { name: 'CrRendererMain' } },
      { ph: 'M', pid: 7, tid: 2, name: 'thread_name', args: { name: 'Compositor' } },
      // A key's dispatch of 10 ms with a script of 8 that forced a 3 ms layout, then a frame's style and paint.
      X('EventDispatch', 0, 10_000),
      X('FunctionCall', 1_000, 8_000),
      X('Layout', 5_000, 3_000),
      X('UpdateLayoutTree', 12_000, 2_000),
      X('Paint', 14_000, 1_000),
      // Another thread's work is not the main thread's.
      X('Layout', 0, 50_000, 2),
    ],
  };
  const breakdown = mainThreadBreakdown(trace, { windows: 1 });
  assert.equal(breakdown.busy_ms, 13);
  assert.deepEqual(breakdown.events, [
    { name: 'FunctionCall', ms: 5 },
    { name: 'Layout', ms: 3 },
    { name: 'EventDispatch', ms: 2 },
    { name: 'UpdateLayoutTree', ms: 2 },
    { name: 'Paint', ms: 1 },
  ]);
  assert.equal(mainThreadBreakdown(trace, { windows: 2 }).busy_ms, 6.5);
});
