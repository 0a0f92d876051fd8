/*
 * What in a vendor request is a credential (VendorHttpClient never follows a redirect of such a request, so
 * a key is only ever sent where it was configured to go).
 */

/** Header names that carry a credential: Authorization, and any naming a key, token, secret or password. */
const CREDENTIAL_HEADER = /^(proxy-)?authorization$|(^|[-_])(api[-_]?)?(key|token|secret|password)([-_]|$)/i;
/** Query parameters that carry one (`?apikey=`, `?key=`, `?access_token=`, `?client_secret=`, ...). */
const CREDENTIAL_PARAMETER =
  /^(api[-_]?key|key|(access[-_]?|auth[-_]?)?token|(client[-_]?)?secret|password|signature|sig|auth)$/i;

/** What in a request is a credential (header names in lower case, query parameters named so). */
export function credentialsOf(url: URL, headers: Record<string, string>): string[] {
  const named = Object.keys(headers)
    .filter((name) => CREDENTIAL_HEADER.test(name))
    .map((name) => name.toLowerCase());
  const parameters = [...new Set(url.searchParams.keys())]
    .filter((name) => CREDENTIAL_PARAMETER.test(name))
    .map((name) => `the ${name} parameter`);
  return [...named, ...parameters];
}
