import { createLogger } from './logging';

const log = createLogger('bootstrap');

/** Runs a process's main: logs and exits non-zero on a boot failure (bad config, broker or DB down). */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err) => {
    log.fatal({ err }, 'failed to start');
    // Give pino a tick to flush.
    setTimeout(() => process.exit(1), 50);
  });
}
