import {
  EventCatalogue,
  formatZodIssues,
  isEventTopic,
  isRequestTopic,
  replyEnvelope,
  RequestCatalogue,
} from '@irp/proto';
import { z } from 'zod';

export type Validation<T> = { ok: true; data: T } | { ok: false; reason: string };

function check(schema: z.ZodTypeAny, payload: unknown): Validation<unknown> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return { ok: true, data: parsed.data as unknown };
  return {
    ok: false,
    reason: formatZodIssues(parsed.error, '(message)'),
  };
}

/**
 * Schemas of topics outside proto's catalogue that a process consumes. Only test fixtures have any: every
 * topic of the system is in proto.
 */
export type LocalTopicSchemas = Readonly<Record<string, z.ZodTypeAny>>;
export const LOCAL_TOPIC_SCHEMAS = Symbol('LOCAL_TOPIC_SCHEMAS');

/** Validates a message against the catalogue schema of its topic (request or event). */
export function validateIncoming(
  topic: string,
  payload: unknown,
  local: LocalTopicSchemas = {},
): Validation<unknown> {
  if (isRequestTopic(topic)) return check(RequestCatalogue[topic].request, payload);
  if (isEventTopic(topic)) return check(EventCatalogue[topic].schema, payload);
  if (Object.prototype.hasOwnProperty.call(local, topic)) return check(local[topic], payload);
  return { ok: false, reason: `topic ${topic} is not in the catalogue` };
}

/** Validates a reply envelope, including its data, against the catalogue. */
export function validateReply(topic: string, envelope: unknown): Validation<unknown> {
  if (!isRequestTopic(topic)) return { ok: false, reason: `topic ${topic} is not a request topic` };
  return check(replyEnvelope(RequestCatalogue[topic].reply), envelope);
}
