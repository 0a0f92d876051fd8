// The CPU a test run costs: every process it starts, whatever parent it ends up under (a detached broker,
// a service a test spawned, Chromium's renderers), counted by the kernel in a cgroup of the run's own, and
// per suite in a child cgroup of it. Where no cgroup can be made (no cgroup filesystem, no permission), the
// machine's own counters (/proc/stat) stand in, said so in the line.
//
//   node scripts/testing/cpu-account.mjs <command> [args...]
//     runs the command inside a new accounting cgroup (make test: the install and build included), and
//     passes its path on in IRP_CPU_CGROUP to scripts/test.mjs, which prints the figures at its end.
//
// cgroup v1 (cpuacct: cpuacct.usage, nanoseconds) and v2 (cpu.stat: usage_usec) are both read.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cgroupCpu from './cgroup-cpu.cjs';

const { readOr, cgroupCpuSeconds, ownV1Dir, ownV2Dir } = cgroupCpu;
export { cgroupCpuSeconds };

export const CPU_CGROUP_ENV = 'IRP_CPU_CGROUP';

/** The machine's CPU-seconds so far (every core, user + system + irq), from /proc/stat. */
export function machineCpuSeconds(stat = readOr('/proc/stat')) {
  const line = stat?.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  // user nice system idle iowait irq softirq steal: everything but idle and iowait
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + (steal || 0)) / 100;
}

/** Moves process `pid` into the cgroup at `dir`; false when the kernel refuses. */
export function joinCgroup(dir, pid = process.pid) {
  try {
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), `${pid}\n`);
    return true;
  } catch {
    return false;
  }
}

/** A new cgroup for accounting named `name` (v1 cpuacct, else v2 beside this process), or undefined. */
export function makeCgroup(name, parent) {
  const bases = parent ? [parent] : [ownV1Dir(), ownV2Dir()].filter(Boolean);
  for (const base of bases) {
    if (cgroupCpuSeconds(base) === undefined && !parent) continue;
    const dir = path.join(base, name);
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (cgroupCpuSeconds(dir) !== undefined) return dir;
    } catch {
      /* the next base */
    }
  }
  return undefined;
}

/** Removes an emptied accounting cgroup (and its children); a cgroup still holding a process stays. */
export function removeCgroup(dir) {
  if (!dir) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) removeCgroup(path.join(dir, entry.name));
  try {
    fs.rmdirSync(dir);
  } catch {
    /* a process is still in it: the kernel keeps it */
  }
}

/** A new accounting cgroup that this process has joined (everything it starts is counted), or undefined. */
function enterOwnCgroup() {
  const dir = makeCgroup(`irp-test-${process.pid}`);
  if (!dir) return undefined;
  if (joinCgroup(dir)) return dir;
  removeCgroup(dir);
  return undefined;
}

/** Back to the parent cgroup, and the emptied one removed. */
function leaveCgroup(dir) {
  if (!dir) return;
  joinCgroup(path.dirname(dir));
  removeCgroup(dir);
}

/**
 * The run's accounting: the cgroup given in IRP_CPU_CGROUP (the Makefile's wrapper), or one of its own
 * (this process joins it, so everything it starts is counted), or the machine's counters. `suite(name)`
 * gives a child cgroup to put a suite's processes in (`join(pid)`), `report()` the figures.
 */
export function runAccounting(env = process.env) {
  const startedMachine = machineCpuSeconds();
  const startedAt = Date.now();
  const given = env[CPU_CGROUP_ENV] && fs.existsSync(env[CPU_CGROUP_ENV]) ? env[CPU_CGROUP_ENV] : undefined;
  const dir = given ?? enterOwnCgroup();
  const own = Boolean(dir) && !given;
  const suites = new Map();
  return {
    dir,
    /** A child cgroup for a suite (its processes' CPU, counted in the run's too). */
    suite(name) {
      if (!dir) return { join: () => false, seconds: () => undefined };
      const sub = suites.get(name) ?? makeCgroup(name.replace(/\W+/g, '-'), dir);
      suites.set(name, sub);
      return {
        join: (pid) => (sub ? joinCgroup(sub, pid) : false),
        seconds: () => (sub ? cgroupCpuSeconds(sub) : undefined),
      };
    },
    /** `{ source, seconds, machineSeconds, wallSeconds, cores, perSuite }`. */
    report() {
      const machine = machineCpuSeconds();
      const perSuite = [...suites].map(([name, sub]) => ({
        name,
        seconds: sub ? cgroupCpuSeconds(sub) : undefined,
      }));
      return {
        source: dir ? 'cgroup' : 'machine',
        seconds: dir ? cgroupCpuSeconds(dir) : undefined,
        machineSeconds:
          machine !== undefined && startedMachine !== undefined ? machine - startedMachine : undefined,
        wallSeconds: (Date.now() - startedAt) / 1000,
        perSuite,
      };
    },
    /** Leaves the cgroup this run made (the wrapper's is the wrapper's to remove). */
    close() {
      if (own) leaveCgroup(dir);
    },
  };
}

/** The wrapper: `cpu-account.mjs <command> [args...]`, the command and all it starts in a new cgroup. */
async function wrap([command, ...args]) {
  const joined = enterOwnCgroup();
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...(joined ? { [CPU_CGROUP_ENV]: joined } : {}) },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('close', (c, s) => resolve(c ?? (s ? 1 : 0))));
  leaveCgroup(joined);
  process.exit(code);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.length < 3) {
    console.error('usage: node scripts/testing/cpu-account.mjs <command> [args...]');
    process.exit(2);
  }
  await wrap(process.argv.slice(2));
}
