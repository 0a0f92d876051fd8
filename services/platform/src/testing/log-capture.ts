import pino, { Logger } from 'pino';
import { rootLogger } from '../logging';

type Streamed = Logger & { [key: symbol]: unknown };

export interface LogCapture {
  /** Every line written since the capture began (JSON lines, as the process would print them). */
  text(): string;
  /** Writes to the process's output again and restores the loggers' levels. */
  stop(): void;
}

/**
 * What this process logs from now on, kept for a test to read (the lines are not printed meanwhile). The
 * root logger's stream is swapped, which every child shares; `atInfo` are loggers whose info lines the test
 * needs while the run's LOG_LEVEL is quieter (their level is lowered until `stop`).
 */
export function captureLogs(atInfo: Logger[] = []): LogCapture {
  const streamSym = pino.symbols.streamSym;
  const root = rootLogger() as Streamed;
  const original = root[streamSym];
  const lines: string[] = [];
  const levels = atInfo.map((logger) => [logger, logger.level] as const);
  root[streamSym] = { write: (line: string) => lines.push(line) };
  for (const logger of atInfo) logger.level = 'info';
  return {
    text: () => lines.join(''),
    stop() {
      root[streamSym] = original;
      for (const [logger, level] of levels) logger.level = level;
    },
  };
}

/** The lines one logger (its `logger` name) wrote during the capture, parsed. */
export function loggedBy(logs: LogCapture, logger: string): Array<Record<string, unknown>> {
  return logs
    .text()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.logger === logger);
}

/**
 * What was logged under the reference a staff message names (`(reference abc123)`, vendorErrorReference):
 * the one line's fields; a message without a reference, or a reference logged other than once, fails.
 */
export function loggedUnderReference(logs: LogCapture, message: string): Record<string, unknown> {
  const reference = /reference ([0-9a-f]{8})/.exec(message)?.[1];
  if (!reference) throw new Error(`no reference in "${message}"`);
  const lines = logs
    .text()
    .split('\n')
    .filter((line) => line.includes(`"reference":"${reference}"`));
  if (lines.length !== 1) throw new Error(`reference ${reference} was logged ${lines.length} times`);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}
