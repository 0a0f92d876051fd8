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
