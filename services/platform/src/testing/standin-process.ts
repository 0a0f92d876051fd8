import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { manifestEntry, repoRoot } from '../manifest';
import { serviceTestEnv } from './harness';
import { adopt, freePort, outputOf } from './service-process';
import { patientDeadline, waitedFor } from './patience';

/** A vendor stand-in of services/manifest.json running as its own process, as `make up` starts it. */
export interface StandInProcess {
  readonly name: string;
  /** `http://127.0.0.1:<port>`: what the service's URL variables (the entry's urlEnv) point at. */
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the stand-in `standIn` of service `service` (the manifest's script in standins/, so build first) on a free port
 * and waits until its health path answers 200. A test outside the service drives it over HTTP, through its
 * control API, as a person does beside `make up`.
 */
export async function startStandInProcess(
  service: string,
  standIn: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
): Promise<StandInProcess> {
  const entry = manifestEntry(service);
  const spec = entry.standIns?.find((s) => s.name === standIn);
  if (!spec) throw new Error(`${service} has no stand-in ${standIn} in the manifest`);
  const port = await freePort();
  const child = spawn(process.execPath, [join(repoRoot(), spec.workspace, spec.script)], {
    cwd: repoRoot(),
    env: { ...serviceTestEnv(), ...env, [spec.portEnv]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  adopt(child);
  const output = outputOf(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle: StandInProcess = {
    name: standIn,
    url: `http://127.0.0.1:${port}`,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const started = Date.now();
  const deadline = patientDeadline(timeoutMs);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${standIn} exited (${child.exitCode}):\n${output()}`);
    const healthy = await fetch(`${handle.url}${spec.health}`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return handle;
    await new Promise((r) => setTimeout(r, 100));
  }
  await handle.stop();
  throw new Error(`${standIn} was not healthy ${waitedFor(started)}:\n${output()}`);
}
