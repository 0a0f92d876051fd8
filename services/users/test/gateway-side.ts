import { SessionGrant, Topics } from '@irp/proto';
import { KafkaRequester, newSessionToken, tokenHash } from '@irp/platform';
import { sealedPassword } from '@irp/platform/testing';

export { sealedPassword };

/** A sign-in as the gateway makes it: the grant and the gateway's own tokens, whose hashes alone were sent. */
export type Signed = SessionGrant & { sessionToken: string; refreshToken: string };

export function newTokens() {
  const sessionToken = newSessionToken();
  const refreshToken = newSessionToken();
  return {
    sessionToken,
    refreshToken,
    hashes: { sessionHash: tokenHash(sessionToken), refreshHash: tokenHash(refreshToken) },
  };
}

/**
 * The users service's sign-in calls as the gateway makes them (its own tokens, their hashes and sealed
 * passwords on the bus), for the service's integration specs.
 */
export function gatewaySide(requester: KafkaRequester) {
  async function signIn(username: string, password: string): Promise<Signed> {
    const { hashes, ...tokens } = newTokens();
    const grant = await requester.request(Topics.UsersAuthenticate, {
      username,
      password: sealedPassword(password),
      tokens: hashes,
    });
    // These specs' users have no second factor (gateway/test/users.int-spec.ts signs in with one).
    if ('secondFactor' in grant) throw new Error(`${username} has a second factor: not signed in`);
    return { ...grant, ...tokens };
  }

  const lookup = (signed: { sessionToken: string }) =>
    requester.request(Topics.UsersSession, { sessionHash: tokenHash(signed.sessionToken) });

  async function refresh(signed: { refreshToken: string }): Promise<Signed> {
    const { hashes, ...tokens } = newTokens();
    const grant = await requester.request(Topics.UsersRefresh, {
      refreshHash: tokenHash(signed.refreshToken),
      next: hashes,
    });
    return { ...grant, ...tokens };
  }

  /** Whether the session still signs its user in. */
  const live = (signed: { sessionToken: string }) =>
    lookup(signed).then(
      () => true,
      () => false,
    );

  return { signIn, lookup, refresh, live };
}
