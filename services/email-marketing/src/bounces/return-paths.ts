import { createHmac, timingSafeEqual } from 'node:crypto';

/** The local part's fixed start: `bounces+<token>@<BOUNCE_DOMAIN>`. */
export const BOUNCE_LOCAL_PART = 'bounces';
/** Where mailbox providers' feedback loops send their ARF complaint reports (registered with each provider). */
export const COMPLAINTS_LOCAL_PART = 'complaints';

const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;
const ID_HEX = 32;
const MAC_HEX = 16; // 8 bytes: enough to turn away guessed addresses before any database read
const TOKEN = new RegExp(`^${BOUNCE_LOCAL_PART}\\+([0-9a-f]{${ID_HEX}})([0-9a-f]{${MAC_HEX}})$`);

/**
 * VERP return paths (issue 36): each delivery's mail goes out with the envelope sender
 * `bounces+<delivery id><mac>@<BOUNCE_DOMAIN>`, so a bounce (a DSN, sent to the envelope sender) names the
 * delivery it is about whatever its text says. The id is the delivery's uuid in hex and the mac an HMAC of it
 * (UNSUBSCRIBE_LINK_SECRET under a label of its own): lower-case hex only, since some servers fold a local
 * part's case, and 56 characters in all (a local part may have 64). Only an address this service made names a
 * delivery: a report cannot suppress an address the portal never mailed.
 */
export class ReturnPaths {
  constructor(
    private readonly secret: string,
    readonly domain: string,
  ) {}

  /** The return path of one delivery's mail. */
  forDelivery(deliveryId: string): string {
    const id = uuidHex(deliveryId);
    return `${BOUNCE_LOCAL_PART}+${id}${this.mac(id)}@${this.domain}`;
  }

  /** The delivery a return path was made for; undefined for any other address (or a forged one). */
  deliveryOf(address: string): string | undefined {
    const at = address.lastIndexOf('@');
    if (at < 0 || address.slice(at + 1).toLowerCase() !== this.domain) return undefined;
    const m = TOKEN.exec(address.slice(0, at).toLowerCase());
    if (!m) return undefined;
    const [, id, mac] = m;
    if (!timingSafeEqual(Buffer.from(mac!), Buffer.from(this.mac(id!)))) return undefined;
    return `${id!.slice(0, 8)}-${id!.slice(8, 12)}-${id!.slice(12, 16)}-${id!.slice(16, 20)}-${id!.slice(20)}`;
  }

  /** Whether `address` is the complaints mailbox of the bounce domain. */
  isComplaintsAddress(address: string): boolean {
    return address.toLowerCase() === `${COMPLAINTS_LOCAL_PART}@${this.domain}`;
  }

  private mac(idHex: string): string {
    return createHmac('sha256', this.secret)
      .update('return-path:')
      .update(idHex)
      .digest('hex')
      .slice(0, MAC_HEX);
  }
}

function uuidHex(id: string): string {
  const m = UUID.exec(id);
  if (!m) throw new Error(`not a delivery id: ${id}`);
  return m.slice(1).join('').toLowerCase();
}
