// The vendors a bench's stack talks to, run in the bench process so it sees every request and every mail:
// the ASX stand-in (both market sources) and, where mail is measured, an SMTP sink (bench/smtp.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startSmtpSink } from './smtp.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startAsxStandIn } = require(path.join(ROOT, 'standins/dist/asx/asx-standin.js'));

/**
 * Starts the stand-in (and with `smtp`, the sink) and points the stack that starts next at them: both ASX
 * sources, SMTP_URL, POLL_INTERVAL_MS when given, and DATA_DIR to `dataDir` (the announcements' files),
 * emptied first. Returns `{ standIn, sink }`.
 */
export async function startBenchVendors({
  smtp = false,
  pollIntervalMs,
  dataDir = path.join(ROOT, '.local', 'bench-data', 'announcements'),
} = {}) {
  const sink = smtp ? await startSmtpSink() : undefined;
  const standIn = await startAsxStandIn({ port: 0, seedTickers: [] });
  process.env.ASX_BASE_URL = standIn.url;
  process.env.ASX2_BASE_URL = standIn.url;
  if (sink) process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port}`;
  if (pollIntervalMs !== undefined) process.env.POLL_INTERVAL_MS = String(pollIntervalMs);
  process.env.DATA_DIR = dataDir;
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { standIn, sink };
}
