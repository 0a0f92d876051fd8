// Signed actors (issue 18: Kafka is a trust boundary). The gateway signs the actor it puts in a request
// with a secret every service shares; a service acts only for an actor whose signature it can verify.
// The signature binds the actor to one message (issue 34): its topic, a message id and a digest of the
// rest of the payload, so a signed actor captured on the broker cannot be replayed on another topic or with
// another payload.
// Node only (node:crypto): `@irp/proto/signing`, not part of the index the web app bundles.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SessionUser } from '../common/session';

/**
 * The development default of ACTOR_SIGNING_SECRET: `make up`, the tests and the fixtures use it; a process
 * with NODE_ENV=production refuses to start with it.
 */
export const DEV_ACTOR_SIGNING_SECRET = 'development-only-actor-signing-secret-do-not-use!';

/** How long a signature holds: a request's round trip (the request timeout is at most 60 s) with slack. */
export const ACTOR_SIGNATURE_TTL_MS = 120_000;

/**
 * What the gateway adds to an actor: when the signature expires, the id of the message it was made for, and
 * the HMAC-SHA256 (base64url).
 */
export interface ActorProof {
  expiresAt: number;
  messageId: string;
  signature: string;
}

export type SignedActor = SessionUser & { proof?: ActorProof };

/** The message a signature is made for: its topic and its payload (the actor in it left out). */
export interface ActorMessage {
  topic: string;
  payload: unknown;
}

/** Why an actor is refused; null when its signature holds. */
export type ActorRefusal = 'missing' | 'expired' | 'bad';

/**
 * JSON with every object's keys sorted (what JSON.stringify would write otherwise, `toJSON` applied first):
 * the same text for a payload before it is sent and after it was parsed from the broker.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** SHA-256 (base64url) of the payload without its actor: the actor's fields are signed one by one. */
function payloadDigest(payload: unknown): string {
  const rest =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? Object.fromEntries(Object.entries(payload).filter(([key]) => key !== 'actor'))
      : payload;
  return createHash('sha256')
    .update(canonicalJson(rest) ?? '')
    .digest('base64url');
}

/**
 * The bytes signed: the user's identity and roles, the expiry, and the message (topic, id, payload digest),
 * in a fixed order (key order ignored).
 */
function signedText(actor: SessionUser, expiresAt: number, messageId: string, message: ActorMessage): string {
  const stockRoles = Object.keys(actor.stockRoles)
    .sort()
    .map((stockId) => [stockId, actor.stockRoles[stockId]]);
  return JSON.stringify([
    actor.id,
    actor.username,
    actor.roles,
    stockRoles,
    expiresAt,
    message.topic,
    messageId,
    payloadDigest(message.payload),
  ]);
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/** The actor with a fresh proof for `message` (any proof it had is replaced). */
export function signActor(
  actor: SessionUser,
  secret: string,
  message: ActorMessage,
  now = Date.now(),
  ttlMs = ACTOR_SIGNATURE_TTL_MS,
): SignedActor & { proof: ActorProof } {
  const { id, username, roles, stockRoles } = actor;
  const expiresAt = now + ttlMs;
  const messageId = randomUUID();
  return {
    id,
    username,
    roles,
    stockRoles,
    proof: {
      expiresAt,
      messageId,
      signature: hmac(secret, signedText(actor, expiresAt, messageId, message)),
    },
  };
}

/**
 * A request's payload as it goes to `topic`: its actor (if any) signed for this topic and payload. The
 * payload must be the one sent (after validation), since a service checks the digest of what it receives.
 */
export function withSignedActor<P>(topic: string, payload: P, secret: string, now = Date.now()): P {
  if (typeof payload !== 'object' || payload === null || !('actor' in payload)) return payload;
  const { actor } = payload as { actor: SessionUser };
  return { ...payload, actor: signActor(actor, secret, { topic, payload }, now) };
}

/**
 * Checks an actor's proof against the message it came in: null when it is signed with this secret for this
 * topic and payload and not expired, else why not.
 */
export function verifyActor(
  actor: SignedActor,
  secret: string,
  message: ActorMessage,
  now = Date.now(),
): ActorRefusal | null {
  const { proof } = actor;
  if (!proof) return 'missing';
  const expected = Buffer.from(hmac(secret, signedText(actor, proof.expiresAt, proof.messageId, message)));
  const given = Buffer.from(proof.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad';
  if (proof.expiresAt < now) return 'expired';
  return null;
}

/** What a refusal says to the requester (the reply's message). */
export const ACTOR_REFUSAL_TEXT: Record<ActorRefusal, string> = {
  missing: "Refused: the request's actor carries no signature (only the gateway may act for a user)",
  expired: "Refused: the request's actor signature has expired",
  bad: "Refused: the request's actor signature does not match (forged or altered actor, signed for another topic or payload, or a different ACTOR_SIGNING_SECRET)",
};
