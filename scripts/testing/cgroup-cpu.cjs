// Reading the kernel's CPU counters of a cgroup (v1 cpuacct: cpuacct.usage in nanoseconds; v2: cpu.stat's
// usage_usec), and finding the cgroup a process is in. CommonJS, so jest environments (CommonJS) and the
// run's ES modules (scripts/testing/cpu-account.mjs) read them the same way.
const fs = require('node:fs');
const path = require('node:path');

const V1_ROOT = '/sys/fs/cgroup/cpuacct';
const V2_ROOT = '/sys/fs/cgroup';

function readOr(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** CPU-seconds used by everything that ever ran in the cgroup at `dir`, or undefined when unreadable. */
function cgroupCpuSeconds(dir) {
  const v1 = readOr(path.join(dir, 'cpuacct.usage'));
  if (v1 !== undefined) return Number(v1.trim()) / 1e9;
  const m = /^usage_usec (\d+)/m.exec(readOr(path.join(dir, 'cpu.stat')) ?? '');
  return m ? Number(m[1]) / 1e6 : undefined;
}

/** The cgroup v1 cpuacct folder process `pid` is in, or undefined. */
function ownV1Dir(pid = 'self') {
  const line = readOr(`/proc/${pid}/cgroup`)
    ?.split('\n')
    .find((l) => /^\d+:[^:]*\bcpuacct\b[^:]*:/.test(l));
  if (!line || !fs.existsSync(V1_ROOT)) return undefined;
  return path.join(V1_ROOT, line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1));
}

/** The cgroup v2 folder process `pid` is in, when the unified hierarchy is mounted at /sys/fs/cgroup. */
function ownV2Dir(pid = 'self') {
  const line = readOr(`/proc/${pid}/cgroup`)
    ?.split('\n')
    .find((l) => l.startsWith('0::'));
  if (!line || !fs.existsSync(path.join(V2_ROOT, 'cgroup.controllers'))) return undefined;
  return path.join(V2_ROOT, line.slice(3));
}

/** The CPU-seconds so far of the cgroup this process is in (v1, else v2), or undefined. */
function ownCgroupCpuSeconds() {
  for (const dir of [ownV1Dir(), ownV2Dir()].filter(Boolean)) {
    const s = cgroupCpuSeconds(dir);
    if (s !== undefined) return s;
  }
  return undefined;
}

module.exports = { V1_ROOT, V2_ROOT, readOr, cgroupCpuSeconds, ownV1Dir, ownV2Dir, ownCgroupCpuSeconds };
