import { KafkaContext } from '@nestjs/microservices';

/** How often a long handler tells the broker it is alive: well inside the smallest session timeout (6 s). */
const HEARTBEAT_EVERY_MS = 1000;

/**
 * Runs a handler's work while heartbeating its consumer. kafkajs heartbeats only between messages, so a
 * poll that waits for a slow source, retries, or an initial poll that reads years of announcements would
 * otherwise outlive the session timeout: the broker would hand its partition (and this message) to another
 * poller while it still works. A failed heartbeat (a rebalance, the broker away) is left to the consumer.
 */
export async function whileHeartbeating<T>(
  context: KafkaContext | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const heartbeat = context?.getHeartbeat();
  if (!heartbeat) return work();
  const timer = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_EVERY_MS);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
