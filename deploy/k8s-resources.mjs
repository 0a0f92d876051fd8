// Requests and limits of the Deployments deploy/k8s.mjs writes, from the RSS and CPU bench/scale.bench.mjs
// measured (deploy/resources.json: per Deployment its busiest instance, with the run's date and machine).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './generated.mjs';

export const RESOURCES_FILE = path.join(ROOT, 'deploy', 'resources.json');

/** Headroom of a limit over the measured peak: a larger batch, a longer queue, heap growth before GC. */
const HEADROOM = 1.5;
/**
 * The least CPU limit: a Node process starts on about a CPU-second (compiling, Nest's module graph, Kafka
 * joins; the Makefile's compile cache note: 0.68 CPU-s), which a lower limit stretches towards its probes.
 */
const MIN_CPU_LIMIT_M = 500;
/** The least CPU request: a scheduler reserves something for an idle replica. */
const MIN_CPU_REQUEST_M = 10;

/**
 * Not measured by a bench: the topics and database Jobs run once per deploy, for seconds (a Kafka admin
 * client; a PostgreSQL client running the bootstrap's statements), and the bounce listener, which no scale
 * run drives yet. Estimates, and say so.
 */
export const ESTIMATED = {
  // The bounce listener: no scale run has measured it yet (a report is a parse and two statements).
  'email-marketing-bounces': {
    requests: { cpu: '50m', memory: '160Mi' },
    limits: { cpu: '500m', memory: '384Mi' },
  },
  topics: { requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
  database: { requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
};

const roundUp = (x, step) => Math.ceil(x / step) * step;

/**
 * The rule, per Deployment:
 *   requests.memory = steady RSS (the median of its samples), rounded up to 16Mi: what the pod holds at work;
 *   limits.memory   = peak RSS (the kernel's VmHWM) x HEADROOM, rounded up to 64Mi: above it the OOM killer;
 *   requests.cpu    = its average over the phase the role worked hardest in, rounded up to 10m;
 *   limits.cpu      = its peak over 5 s x HEADROOM, rounded up to 100m, at least MIN_CPU_LIMIT_M.
 */
export function fromMeasured({ rssMiB, cpuMillicores }) {
  return {
    requests: {
      cpu: `${Math.max(MIN_CPU_REQUEST_M, roundUp(cpuMillicores.avg, 10))}m`,
      memory: `${roundUp(rssMiB.steady, 16)}Mi`,
    },
    limits: {
      cpu: `${Math.max(MIN_CPU_LIMIT_M, roundUp(cpuMillicores.peak * HEADROOM, 100))}m`,
      memory: `${roundUp(rssMiB.peak * HEADROOM, 64)}Mi`,
    },
  };
}

/**
 * `resourcesOf(deployment, role)` for the figures in `file`: the Deployment's own; else (a service added
 * since the run) the largest of its role's measured Deployments; else an estimate named above.
 */
export function measuredResources(file = RESOURCES_FILE) {
  const { deployments } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const largest = (role) => {
    const same = Object.entries(deployments).filter(([name]) => name.endsWith(`-${role}`));
    if (!same.length) return undefined;
    const max = (pick) => Math.max(...same.map(([, d]) => pick(d)));
    return {
      rssMiB: { steady: max((d) => d.rssMiB.steady), peak: max((d) => d.rssMiB.peak) },
      cpuMillicores: { avg: max((d) => d.cpuMillicores.avg), peak: max((d) => d.cpuMillicores.peak) },
    };
  };
  return (deployment, role) => {
    const measured = deployments[deployment] ?? largest(role);
    if (measured) return fromMeasured(measured);
    if (ESTIMATED[deployment]) return ESTIMATED[deployment];
    throw new Error(
      `${deployment}: ${path.relative(ROOT, file)} has no figures for it or its role ${role} (run bench/scale.bench.mjs)`,
    );
  };
}
