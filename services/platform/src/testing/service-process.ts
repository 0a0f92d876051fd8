import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { manifestEntry, repoRoot } from '../manifest';
import { serviceTestEnv } from './harness';
import { patientDeadline, waitedFor } from './patience';

/** A service running as a child process: what a test outside the service may touch of it. */
export interface ServiceProcess {
  readonly name: string;
  readonly pid: number;
  /** `http://127.0.0.1:<port>`, serving /health and /metrics. */
  readonly healthUrl: string;
  /** The last lines the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM (a graceful shutdown), then waits until the process has exited. */
  stop(): Promise<void>;
  /** Sends a signal (SIGKILL by default) and waits until the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServiceProcessOptions {
  /** Added to serviceTestEnv() (and given HEALTH_PORT, a free port). */
  env?: NodeJS.ProcessEnv;
  /** ROLES of the process; default all of the service's roles. */
  roles?: readonly string[];
  /** The script to run instead of the manifest's `<workspace>/dist/main.js` (a test fixture's service). */
  script?: string;
  /** How long to wait for /health to answer 200. */
  timeoutMs?: number;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Keeps the last lines a child writes, and drains its pipes so it never blocks on a full one. */
export function outputOf(child: ChildProcess, keep = 80): () => string {
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    lines.splice(0, Math.max(lines.length - keep, 0));
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return () => lines.join('\n');
}

/**
 * Every child still running when its test file ends is killed then (the integration environment's teardown,
 * integration-environment.js), and any still running when the test process exits with it; none keeps the
 * test process alive. A file whose set-up timed out never stops what it started, and set-up still under way
 * goes on starting services after the file ended: left running, they would answer the next files' requests
 * in the same consumer groups (a report loaded by a service that has no fault rule, say).
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** What the integration environment shares with the test file's modules (its global object). */
interface FileChildren {
  __irpFileChildren?: Set<ChildProcess>;
  __irpFileEnded?: boolean;
}

export function adopt(child: ChildProcess): void {
  running.add(child);
  const file = globalThis as FileChildren;
  file.__irpFileChildren?.add(child);
  child.once('exit', () => {
    running.delete(child);
    file.__irpFileChildren?.delete(child);
  });
  child.unref();
  for (const pipe of [child.stdout, child.stderr]) if (pipe instanceof Socket) pipe.unref();
  // Started by set-up that outlived its file.
  if (file.__irpFileEnded) child.kill('SIGKILL');
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/**
 * Starts a service of services/manifest.json as its own process (`node <workspace>/dist/main.js`, so
 * build first) against the test broker and database, and waits until its /health answers 200. A test of
 * another part (the gateway) reaches it only through Kafka and HTTP, never through its code.
 */
export async function startServiceProcess(
  name: string,
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const script = options.script ?? join(repoRoot(), manifestEntry(name).workspace, 'dist', 'main.js');
  const port = await freePort();
  const child = spawn(process.execPath, [script], {
    cwd: repoRoot(),
    env: {
      ...serviceTestEnv(name),
      ...options.env,
      HEALTH_PORT: String(port),
      ...(options.roles ? { ROLES: options.roles.join(',') } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  adopt(child);
  const output = outputOf(child);
  const exited = exitOf(child);
  const healthUrl = `http://127.0.0.1:${port}`;
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const handle: ServiceProcess = {
    name,
    pid: child.pid ?? 0,
    healthUrl,
    output,
    stop: () => stopWith('SIGTERM'),
    kill: (signal = 'SIGKILL') => stopWith(signal),
  };

  const started = Date.now();
  const deadline = patientDeadline(options.timeoutMs ?? 60_000);
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`${name} exited (${exitCode}) before it was healthy:\n${output()}`);
    const healthy = await fetch(`${healthUrl}/health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return handle;
    await new Promise((r) => setTimeout(r, 100));
  }
  await handle.kill();
  throw new Error(`${name} was not healthy ${waitedFor(started)}:\n${output()}`);
}

/**
 * Runs a service's seed script (the manifest's `seed`) as its own process with the test environment and
 * the given arguments; resolves when it exits 0, throws with its output otherwise.
 */
export async function runServiceSeed(
  name: string,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const entry = manifestEntry(name);
  if (!entry.seed) throw new Error(`${name} has no seed in the manifest`);
  const child = spawn(process.execPath, [join(repoRoot(), entry.workspace, entry.seed), ...args], {
    cwd: repoRoot(),
    // The users seed's opt-in: tests seed the demo accounts on purpose.
    env: { ...serviceTestEnv(name), SEED_DEMO_USERS: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  adopt(child);
  const output = outputOf(child);
  const code = await exitOf(child);
  if (code !== 0) throw new Error(`${name} seed ${args.join(' ')} exited ${code}:\n${output()}`);
}
