import { createLogger } from '@irp/platform';
import { z } from 'zod';

/**
 * The process around a stand-in as the stack runs it (services/manifest.json's standIns): its environment
 * checked, one log line saying where it listens, a clean stop on SIGTERM/SIGINT, exit 1 when it cannot start.
 */
export function runStandIn<S extends z.ZodTypeAny>(
  name: string,
  envSchema: S,
  start: (env: z.infer<S>) => Promise<{ url: string; close(): Promise<void> }>,
  started: (url: string, env: z.infer<S>) => string = (url) => `${name} on ${url}`,
): void {
  const log = createLogger(name);
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    log.error(`${issue.path.join('.')}: ${issue.message}`);
    process.exit(1);
  }
  const env = parsed.data as z.infer<S>;
  start(env).then(
    (standIn) => {
      log.info({ url: standIn.url }, started(standIn.url, env));
      const stop = () => void standIn.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (err: unknown) => {
      log.error({ err }, `${name} could not start`);
      process.exit(1);
    },
  );
}
