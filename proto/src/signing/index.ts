// Signed actors (issue 18: Kafka is a trust boundary). The gateway signs the actor it puts in a request
// with a secret every service shares; a service acts only for an actor whose signature it can verify.
// Node only (node:crypto): `@irp/proto/signing`, not part of the index the web app bundles.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SessionUser } from '../common/session';

/**
 * The development default of ACTOR_SIGNING_SECRET: `make up`, the tests and the fixtures use it; a process
 * with NODE_ENV=production refuses to start with it.
 */
export const DEV_ACTOR_SIGNING_SECRET = 'development-only-actor-signing-secret-do-not-use!';

/** How long a signature holds: a request's round trip (the request timeout is at most 60 s) with slack. */
export const ACTOR_SIGNATURE_TTL_MS = 120_000;

/** What the gateway adds to an actor: when the signature expires and the HMAC-SHA256 (base64url). */
export interface ActorProof {
  expiresAt: number;
  signature: string;
}

export type SignedActor = SessionUser & { proof?: ActorProof };

/** Why an actor is refused; null when its signature holds. */
export type ActorRefusal = 'missing' | 'expired' | 'bad';

/** The bytes signed: the user's identity and roles and the expiry, in a fixed order (key order ignored). */
function signedText(actor: SessionUser, expiresAt: number): string {
  const stockRoles = Object.keys(actor.stockRoles)
    .sort()
    .map((stockId) => [stockId, actor.stockRoles[stockId]]);
  return JSON.stringify([actor.id, actor.username, actor.roles, stockRoles, expiresAt]);
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/** The actor with a fresh proof (any proof it had is replaced). */
export function signActor(
  actor: SessionUser,
  secret: string,
  now = Date.now(),
  ttlMs = ACTOR_SIGNATURE_TTL_MS,
): SignedActor & { proof: ActorProof } {
  const { id, username, roles, stockRoles } = actor;
  const expiresAt = now + ttlMs;
  return {
    id,
    username,
    roles,
    stockRoles,
    proof: { expiresAt, signature: hmac(secret, signedText(actor, expiresAt)) },
  };
}

/** Checks an actor's proof: null when it is signed with this secret and not expired, else why not. */
export function verifyActor(actor: SignedActor, secret: string, now = Date.now()): ActorRefusal | null {
  const { proof } = actor;
  if (!proof) return 'missing';
  const expected = Buffer.from(hmac(secret, signedText(actor, proof.expiresAt)));
  const given = Buffer.from(proof.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad';
  if (proof.expiresAt < now) return 'expired';
  return null;
}

/** What a refusal says to the requester (the reply's message). */
export const ACTOR_REFUSAL_TEXT: Record<ActorRefusal, string> = {
  missing: "Refused: the request's actor carries no signature (only the gateway may act for a user)",
  expired: "Refused: the request's actor signature has expired",
  bad: "Refused: the request's actor signature does not match (forged or altered actor, or a different ACTOR_SIGNING_SECRET)",
};
