import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The development secret used when UNSUBSCRIBE_LINK_SECRET is unset: public, and refused in production. */
export const DEV_UNSUBSCRIBE_LINK_SECRET = 'development-only-unsubscribe-link-secret-do-not-use';

const VERSION = 'u1';
const ID_CHARS = 22; // 16 bytes of a uuid, base64url
const MAC_BYTES = 18;
const MAC_CHARS = 24; // 18 bytes, base64url
const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;

/** What a token from an unsubscribe link proves: the subscriber it was made for, or the hash a legacy token is kept as. */
export type UnsubscribeProof = { subscriberId: string } | { legacyHash: string };

/**
 * Unsubscribe links without a stored token: the token is the subscriber's id with an HMAC of it
 * (UNSUBSCRIBE_LINK_SECRET), `u1` + base64url(id) + base64url(mac), 48 characters of `[A-Za-z0-9_-]`. Every
 * mail to a subscriber can carry its link (the sender derives it), and a database read gives nothing to
 * unsubscribe anyone with. Tokens of mails sent before this scheme (random, 32 bytes) are kept only as their
 * sha256 (`legacy_unsubscribe_token_hash`), like confirmation tokens.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string) {}

  /** The token of `subscriberId`'s unsubscribe link. */
  forSubscriber(subscriberId: string): string {
    const id = uuidBytes(subscriberId);
    return `${VERSION}${id.toString('base64url')}${this.mac(id).toString('base64url')}`;
  }

  /** What `token` proves: a subscriber's id when it is a genuine current token, else a legacy token's hash. */
  proofOf(token: string): UnsubscribeProof {
    if (token.length === VERSION.length + ID_CHARS + MAC_CHARS && token.startsWith(VERSION)) {
      const id = Buffer.from(token.slice(VERSION.length, VERSION.length + ID_CHARS), 'base64url');
      const mac = Buffer.from(token.slice(VERSION.length + ID_CHARS), 'base64url');
      if (id.length === 16 && mac.length === MAC_BYTES && timingSafeEqual(mac, this.mac(id)))
        return { subscriberId: uuidText(id) };
    }
    return { legacyHash: legacyTokenHash(token) };
  }

  private mac(id: Buffer): Buffer {
    return createHmac('sha256', this.secret)
      .update('unsubscribe:')
      .update(id)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}

/** How a token of the earlier scheme is kept: its sha256, hex (the migration computes the same in SQL). */
export function legacyTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function uuidBytes(id: string): Buffer {
  const m = UUID.exec(id);
  if (!m) throw new Error(`not a subscriber id: ${id}`);
  return Buffer.from(m.slice(1).join(''), 'hex');
}

function uuidText(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
