/**
 * A subscriber's links, all signed by one token (the subscriber's id and its HMAC, unsubscribe-tokens.ts): the
 * visible unsubscribe link opens the web page (which asks before it unsubscribes, so link scanners never
 * do), the one-click one is the API the mail client POSTs to (RFC 8058), the preference page chooses what is
 * mailed. The token never expires: a mail's links work as long as the subscription exists.
 */
export function subscriptionLinks(publicBaseUrl: string, unsubscribeToken: string) {
  return {
    unsubscribeUrl: `${publicBaseUrl}/subscription/unsubscribe/${unsubscribeToken}`,
    oneClickUrl: `${publicBaseUrl}/api/subscription/unsubscribe/${unsubscribeToken}`,
    preferencesUrl: `${publicBaseUrl}/subscription/preferences/${unsubscribeToken}`,
  };
}
