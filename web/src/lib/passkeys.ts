import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { errorMessageOf } from './apiError';

/** The browser's passkey prompt was closed, timed out or refused (WebAuthn's NotAllowedError/AbortError). */
export const PASSKEY_NOT_USED = 'No passkey was used: the prompt was closed or timed out';

/**
 * The WebAuthn JSON the gateway hands out and takes back. The route table types it as an open record (the
 * server's verifier checks it), so it is cast here, once, to and from @simplewebauthn/browser's forms.
 */
type WebAuthnJson = Record<string, unknown>;

/** Asks the browser for a passkey assertion (the sign-in's second step): the response to send back. */
export async function assertPasskey(options: WebAuthnJson): Promise<WebAuthnJson> {
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return { ...response };
}

/** Asks the browser to create a passkey (Account security): the registration response to send back. */
export async function createPasskey(options: WebAuthnJson): Promise<WebAuthnJson> {
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return { ...response };
}

/**
 * The text for a failed passkey step: a prompt the user closed (or that timed out) says so; a refusal of
 * the server is its errorMessage; anything else (no WebAuthn in this browser, a passkey already registered)
 * is the library's message.
 */
export function passkeyErrorMessage(error: unknown): string {
  // A DOMException (what the browser throws, unwrapped by the library) is an Error only in some engines.
  const name = error && typeof error === 'object' && 'name' in error ? error.name : undefined;
  if (name === 'NotAllowedError' || name === 'AbortError') return PASSKEY_NOT_USED;
  return errorMessageOf(error);
}
