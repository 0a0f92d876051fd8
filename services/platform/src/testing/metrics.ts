import { waitUntil } from './harness';

/**
 * A counter of a process's /metrics, by name and labels (every label given must match); 0 when no series
 * matches yet. `baseUrl` is the process's health URL (`ServiceProcess.healthUrl`, or an in-process app's
 * `http://127.0.0.1:<port>`). Summed over the matching series, so `{ topic }` alone counts every outcome.
 */
export async function readCounter(
  baseUrl: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    const has = Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`));
    if (has) sum += Number(line.split(' ').pop());
  }
  return sum;
}

/** Messages the process has finished handling on `topic` (the platform's handled-messages counter). */
export const handledMessages = (baseUrl: string, topic: string, outcome = 'ok') =>
  readCounter(baseUrl, 'irp_kafka_handled_messages_total', { topic, outcome });

/**
 * Waits until the process has handled `atLeast` messages of `topic` in all: the positive signal that a
 * message sent to it was processed (instead of a sleep before checking that nothing happened).
 */
export async function untilHandled(
  baseUrl: string,
  topic: string,
  atLeast: number,
  timeoutMs = 30_000,
): Promise<void> {
  await waitUntil(
    `${topic} handled ${atLeast} time(s)`,
    async () => (await handledMessages(baseUrl, topic)) >= atLeast,
    timeoutMs,
    100,
  );
}
