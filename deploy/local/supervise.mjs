// The local broker's restart policy: `make up` in the foreground (scripts/stack.mjs) starts the broker of
// its infrastructure again when it dies, as Kubernetes or Docker would restart a broker's container, so a
// crashed broker is an outage of seconds (the services ride it out, docs/operations.md) rather than a stack
// that stays broken until someone notices.

import { readEnvFile } from './env-file.mjs';
import { isAlive } from './shared.mjs';

/**
 * Every `intervalMs`, whether the broker the env file names (KAFKA_PID, set when this infrastructure started
 * it) is alive; when it is not, `restart()` (e.g. `up` with the same env file, which starts it again on its
 * data and records the new pid), tried again on the next check if it fails. Returns a function that stops
 * watching. Nothing is watched for a broker this infrastructure did not start (no KAFKA_PID).
 */
export function superviseKafka({ envFile, restart, log, intervalMs = 1000 }) {
  let busy = false;
  let stopped = false;
  const check = async () => {
    if (busy || stopped) return;
    const pid = Number(readEnvFile(envFile).KAFKA_PID);
    if (!pid || isAlive(pid)) return;
    busy = true;
    const t0 = Date.now();
    log(`kafka     pid ${pid} exited; starting it again (as a restart policy would)`);
    try {
      await restart();
      log(`kafka     answering again ${((Date.now() - t0) / 1000).toFixed(1)} s after it was found dead`);
    } catch (err) {
      log(`kafka     not started again (${err.message}); trying again`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
