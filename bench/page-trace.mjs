// What Chromium's main thread did over a window of a browser bench, from its own trace (the DevTools
// timeline's events), where a CPU profile sees only JavaScript and calls the rest `(program)`: style
// (UpdateLayoutTree), layout, paint, the event's dispatch, the animation frame, each by self time (an event's
// duration less the events nested in it on the same thread), so a layout forced inside a script counts as
// layout, not as the script.

/** The renderer main thread's complete events (`ph: 'X'`) of a trace, by thread. */
function mainThreadEvents(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return events.filter((e) => e.ph === 'X' && typeof e.dur === 'number' && main.has(`${e.pid}:${e.tid}`));
}

/**
 * Self time by event name on the renderer main thread, in ms, over `windows` windows (divided by it: per
 * window), the largest first: `[{ name, ms }]`, and the thread's busy time (the top-level events' sum).
 */
export function mainThreadBreakdown(trace, { windows = 1, top = 12 } = {}) {
  const events = mainThreadEvents(trace).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  let busyUs = 0;
  // Nesting per thread: an event inside the one open before it (the trace's events nest or follow).
  const open = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    const stack = open.get(key) ?? [];
    open.set(key, stack);
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur);
    else busyUs += e.dur;
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur);
    stack.push(e);
  }
  const per = (us) => +(us / 1000 / windows).toFixed(2);
  return {
    busy_ms: per(busyUs),
    events: [...self]
      .filter(([, us]) => us > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: per(us) })),
  };
}

/** The breakdown as one line for a bench's log. */
export const breakdownLine = (breakdown) =>
  `main thread busy ${breakdown.busy_ms} ms: ${breakdown.events.map((e) => `${e.name} ${e.ms}`).join(', ')}`;

/** The DevTools timeline's categories (what the Performance panel records). */
export const TIMELINE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'v8.execute',
];
