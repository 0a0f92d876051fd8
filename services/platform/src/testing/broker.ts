import dotenv from 'dotenv';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { repoRoot } from '../manifest';
import { loadTestEnv, waitUntil } from './harness';

/** The test run's own broker: what stopping and starting it again takes. */
export interface OwnBroker {
  /** The infra env file that started it (INFRA_ENV_FILE); `up` again rewrites its KAFKA_PID. */
  readonly file: string;
  readonly pid: number;
  readonly dir: string;
  readonly port: string;
  readonly controllerPort: string;
}

const alive = (pid: number) => {
  try {
    return pid > 0 && process.kill(pid, 0);
  } catch {
    return false;
  }
};

/**
 * The broker of this test run, when the infra script started it locally (the runner's lane): then a test may
 * stop and start it. Null under Docker or a KAFKA_BROKERS given from outside: tests that need it skip with
 * the declared condition `ownBroker` (scripts/testing/skip-conditions.js).
 */
export function ownLocalBroker(): OwnBroker | null {
  const file = process.env.INFRA_ENV_FILE ?? join(repoRoot(), '.local', 'test.env');
  if (!existsSync(file)) return null;
  const env = dotenv.parse(readFileSync(file, 'utf8'));
  const pid = Number(env.KAFKA_PID);
  if (
    env.KAFKA_BROKERS !== loadTestEnv().KAFKA_BROKERS ||
    !(env.INFRA_STARTED ?? '').split(',').includes('kafka') ||
    !alive(pid)
  )
    return null;
  const dir = isAbsolute(env.INFRA_DIR) ? env.INFRA_DIR : join(repoRoot(), env.INFRA_DIR);
  const props = readFileSync(join(dir, 'kafka', 'server.properties'), 'utf8');
  const controllerPort = /controller\.quorum\.voters=\d+@[^:]+:(\d+)/.exec(props)?.[1];
  const port = /:(\d+)$/.exec(env.KAFKA_BROKERS)?.[1];
  if (!controllerPort || !port) return null;
  return { file, pid, dir, port, controllerPort };
}

/**
 * Stops the broker: SIGTERM is a controlled shutdown, SIGKILL a crash (`kill -9`: no goodbye to any client,
 * its logs recovered at the next start). Resolves once the process is gone.
 */
export async function stopBroker(
  broker: OwnBroker,
  signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
): Promise<void> {
  process.kill(broker.pid, signal);
  await waitUntil('the broker stopped', () => !alive(broker.pid), 60_000, 100);
}

/**
 * Starts the broker again the way the infra script runs it (`up` with the same INFRA_DIR: the same data,
 * topics and committed offsets), which waits until it answers. Returns it with its new pid.
 */
export async function startBroker(broker: OwnBroker): Promise<OwnBroker> {
  const database = new URL(loadTestEnv().DATABASE_URL).pathname.slice(1);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      ['deploy/local/infra.mjs', 'up', '--env', broker.file, '--database', database, '--no-topics'],
      {
        cwd: repoRoot(),
        env: {
          ...process.env,
          INFRA_DIR: broker.dir,
          KAFKA_PORT: broker.port,
          KAFKA_CONTROLLER_PORT: broker.controllerPort,
        },
        stdio: 'inherit',
      },
    );
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`infra.mjs up exited ${code}: the broker did not come back`);
  const pid = Number(dotenv.parse(readFileSync(broker.file, 'utf8')).KAFKA_PID);
  return { ...broker, pid };
}

/** Stops the broker (`signal`), runs `whileStopped`, and starts it again; the broker with its new pid. */
export async function restartBroker(
  broker: OwnBroker,
  whileStopped: () => Promise<void>,
  signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
): Promise<OwnBroker> {
  await stopBroker(broker, signal);
  await whileStopped();
  return startBroker(broker);
}
