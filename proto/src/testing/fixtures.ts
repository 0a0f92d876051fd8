// Test fixtures every suite shares (services, gateway, web, bench): one whole Stock and one signed-in user,
// each a call with overrides instead of the literal written out per suite. Type imports only (and node's
// crypto for the actor's signature), so the module carries no zod (the web's tests and the bench import it
// as well as the servers').
import type { SessionUser } from '../common/session';
import {
  type ActorProof,
  DEV_ACTOR_SIGNING_SECRET,
  signActor,
  type SignedActor,
  verifyActor,
  withSignedActor,
} from '../signing';
import type { Stock } from '../stocks/stock';

/** The id of `stockFixture()` unless overridden. */
export const FIXTURE_STOCK_ID = '00000000-0000-4000-8000-00000000000a';

/**
 * A whole Stock (proto's StockSchema, as `stock.upserted` and the staff stock page carry it): ABC on ASX,
 * polled, nothing auto-sent. `combinedTicker` follows the `ticker` and `exchange`
 * given unless it is given too; every other field is as overridden.
 */
export function stockFixture(overrides: Partial<Stock> = {}): Stock {
  const ticker = overrides.ticker ?? 'ABC';
  const exchange = overrides.exchange ?? 'ASX';
  return {
    id: FIXTURE_STOCK_ID,
    ticker,
    exchange,
    combinedTicker: `${ticker}:${exchange}`,
    isin: '',
    companyName: `${ticker} Limited`,
    created: '2026-01-01T00:00:00.000Z',
    archived: false,
    pollAsx: true,
    sendPriceSensitiveAnnouncements: false,
    sendNonPriceSensitiveAnnouncements: false,
    autoSendAnnouncementEmail: false,
    autoSendNonPriceSensitiveAnnouncements: false,
    autoSendFilter: '',
    announcementStartYear: 2026,
    confirmationEmail: '',
    moderatorEmail: '',
    contactEmail: '',
    billingDate: '2026-01-01T00:00:00.000Z',
    websiteUrl: '',
    apiKey: null,
    announcementNotificationEmails: '',
    accountingReference: '',
    subscriptionExpired: false,
    companyLogoUrl: '',
    announcementCommentTemplate: '',
    disableMarketData: false,
    version: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A stable UUID per username (FNV-1a of the name), so two fixture users differ unless given one id. */
function idOf(username: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < username.length; i++) {
    hash ^= username.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `00000000-0000-4000-8000-0000${hash.toString(16).padStart(8, '0')}`;
}

/** The secret the tests' processes sign and check actors with (the development default unless set). */
const testActorSecret = () => process.env.ACTOR_SIGNING_SECRET || DEV_ACTOR_SIGNING_SECRET;

/**
 * What a fixture actor is signed for: no message a service takes. A test's requester (the platform's
 * `createTestRequester`) signs such an actor for each request it sends, as the gateway signs a session's.
 */
const FIXTURE_MESSAGE = { topic: 'test-fixture', payload: null } as const;

/**
 * A signed-in user as the gateway passes it to services (proto's Actor / SessionUser): `user` with no
 * roles unless overridden; its id follows the username unless given. Signed with ACTOR_SIGNING_SECRET as the
 * tests' processes see it for no message (a service refuses it as it is): a test's requester signs it for
 * each request it sends (`signFixtureActor`), so a request sent straight to a service through Kafka is
 * accepted; `unsignedActor` is the same without the proof.
 */
export function actor(overrides: Partial<SessionUser> = {}): SignedActor & { proof: ActorProof } {
  return signActor(
    unsignedActor(overrides),
    testActorSecret(),
    FIXTURE_MESSAGE,
    Date.now(),
    // Long enough for any test's requests: a fixture is built once per suite.
    24 * 3600_000,
  );
}

/**
 * A test's request as the gateway would send it: an actor signed by `actor()` signed again for this topic
 * and payload (with `secret`, the services' ACTOR_SIGNING_SECRET, when not the tests' own). Any other actor
 * (unsigned, forged, altered, or one signed for another message, as captured off the broker) is sent as it
 * is, for a test of what a service refuses.
 */
export function signFixtureActor<P>(topic: string, payload: P, secret = testActorSecret()): P {
  if (typeof payload !== 'object' || payload === null || !('actor' in payload)) return payload;
  const { actor: given } = payload as { actor: SignedActor };
  if (verifyActor(given, testActorSecret(), FIXTURE_MESSAGE) !== null) return payload;
  return withSignedActor(topic, payload, secret);
}

/** `actor()` without the gateway's signature: what a forger on the broker could send. */
export function unsignedActor(overrides: Partial<SessionUser> = {}): SessionUser {
  const username = overrides.username ?? 'user';
  const { id, roles, stockRoles } = overrides;
  return { id: id ?? idOf(username), username, roles: roles ?? [], stockRoles: stockRoles ?? {} };
}
