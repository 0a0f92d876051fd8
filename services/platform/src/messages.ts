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

/** Validates a message against the catalogue schema of its topic (request or event). */
export function validateIncoming(topic: string, payload: unknown): Validation<unknown> {
  if (isRequestTopic(topic)) return check(RequestCatalogue[topic].request, payload);
  if (isEventTopic(topic)) return check(EventCatalogue[topic].schema, payload);
  return { ok: false, reason: `topic ${topic} is not in the catalogue` };
}

/** Validates a reply envelope, including its data, against the catalogue. */
export function validateReply(topic: string, envelope: unknown): Validation<unknown> {
  if (!isRequestTopic(topic)) return { ok: false, reason: `topic ${topic} is not a request topic` };
  return check(replyEnvelope(RequestCatalogue[topic].reply), envelope);
}
