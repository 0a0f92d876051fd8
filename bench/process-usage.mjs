// Memory and CPU of the stack's processes, read from /proc as the kernel keeps them: VmRSS (resident now) and
// VmHWM (the most it was ever resident, so a peak between two samples is not missed) from
// /proc/<pid>/status, utime + stime (CPU the process used, in clock ticks) from /proc/<pid>/stat. Sampled
// once a second; each phase of a bench (marked with `phase`) gets its own CPU average and peak.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
/** The window the CPU peak is taken over: short enough to see a burst, long enough not to be one tick. */
const PEAK_WINDOW_MS = 5000;

/** { rssKb, hwmKb, cpuSeconds } of a live process, undefined once it is gone. */
export function readUsage(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), counted from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return {
      rssKb: kb('VmRSS'),
      hwmKb: kb('VmHWM'),
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
    };
  } catch {
    return undefined;
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

/**
 * Samples `processes` ([{ name, pid, ... }]) every `everyMs` until `stop()`. `phase(name)` starts a phase.
 * `stop()` returns per process: its fields, RSS steady (median of the samples) and peak (VmHWM) in MiB,
 * CPU-seconds over the run, and per phase the average and peak CPU in millicores.
 */
export function sampleProcesses(processes, { everyMs = 1000, onTick } = {}) {
  const started = Date.now();
  const phases = [{ name: 'start', at: started }];
  const samples = new Map(processes.map((p) => [p.pid, []]));
  const take = () => {
    const at = Date.now();
    for (const p of processes) {
      const u = readUsage(p.pid);
      if (u) samples.get(p.pid).push({ at, ...u });
    }
    onTick?.(at - started);
  };
  take();
  const timer = setInterval(take, everyMs);

  /** Average and peak millicores of one process's samples within [from, to). */
  const cpuOf = (list, from, to) => {
    const within = list.filter((s) => s.at >= from && s.at < to);
    if (within.length < 2) return undefined;
    const first = within[0];
    const last = within[within.length - 1];
    let peak = 0;
    for (let a = 0, b = 0; b < within.length; b++) {
      while (within[b].at - within[a].at > PEAK_WINDOW_MS) a++;
      const ms = within[b].at - within[a].at;
      if (ms >= PEAK_WINDOW_MS / 2) peak = Math.max(peak, (within[b].cpuSeconds - within[a].cpuSeconds) / ms);
    }
    const avg = (last.cpuSeconds - first.cpuSeconds) / (last.at - first.at);
    return { avgMillicores: Math.round(avg * 1e6), peakMillicores: Math.round(Math.max(peak, avg) * 1e6) };
  };

  return {
    phase(name) {
      phases.push({ name, at: Date.now() });
    },
    stop() {
      clearInterval(timer);
      take();
      const ended = Date.now();
      const bounds = phases.map((p, i) => ({ ...p, to: phases[i + 1]?.at ?? ended + 1 }));
      return processes.map((p) => {
        const list = samples.get(p.pid);
        const last = list[list.length - 1];
        const mib = (kb) => +(kb / 1024).toFixed(1);
        return {
          ...p,
          samples: list.length,
          rssMiB: { steady: mib(median(list.map((s) => s.rssKb))), peak: mib(last?.hwmKb ?? 0) },
          cpuSeconds: last && +(last.cpuSeconds - list[0].cpuSeconds).toFixed(2),
          cpuSecondsBeforeSampling: list[0] && +list[0].cpuSeconds.toFixed(2),
          phases: Object.fromEntries(
            bounds.map((b) => [b.name, cpuOf(list, b.at, b.to)]).filter(([, v]) => v),
          ),
        };
      });
    },
  };
}
