import { z } from 'zod';

/** Error codes a service may reply with; the gateway maps each to one HTTP status. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Unauthenticated: 'UNAUTHENTICATED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  TooManyRequests: 'TOO_MANY_REQUESTS',
  InvalidMessage: 'INVALID_MESSAGE',
  /** The request's actor is not signed by the gateway (missing, expired or bad signature). */
  UntrustedActor: 'UNTRUSTED_ACTOR',
  ServiceUnavailable: 'SERVICE_UNAVAILABLE',
  Internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const HTTP_STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  INVALID_MESSAGE: 400,
  UNTRUSTED_ACTOR: 403,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export const ReplyErrorSchema = z.object({
  code: z.nativeEnum(ErrorCode),
  message: z.string(),
});
export type ReplyError = z.infer<typeof ReplyErrorSchema>;

/** Every reply on a `<service>.reply` topic: `{ ok: true, data } | { ok: false, error: { code, message } }`. */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: ReplyError };

export function replyEnvelope<T extends z.ZodTypeAny>(data: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: ReplyErrorSchema }),
  ]);
}

export const ok = <T>(data: T): Reply<T> => ({ ok: true, data });
export const fail = (code: ErrorCode, message: string): Reply<never> => ({
  ok: false,
  error: { code, message },
});

/** Kafka headers every message carries. */
export const Header = {
  CorrelationId: 'x-correlation-id',
  /** Epoch milliseconds after which the requester has given up; a service skips expired requests. */
  Deadline: 'x-deadline',
  /** Set on `.dlq` messages: why the message was rejected. */
  DlqReason: 'x-dlq-reason',
  DlqSourceTopic: 'x-dlq-source-topic',
  /** The fields of a DLQ copy whose values were left out (secrets: issue 34), comma-separated paths. */
  DlqRedacted: 'x-dlq-redacted',
} as const;
