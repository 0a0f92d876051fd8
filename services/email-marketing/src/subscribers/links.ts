/**
 * A subscriber's unsubscribe links: the visible one opens the web page (which asks before it unsubscribes,
 * so link scanners never do), the one-click one is the API the mail client POSTs to (RFC 8058).
 */
export function subscriptionLinks(publicBaseUrl: string, unsubscribeToken: string) {
  return {
    unsubscribeUrl: `${publicBaseUrl}/subscription/unsubscribe/${unsubscribeToken}`,
    oneClickUrl: `${publicBaseUrl}/api/subscription/unsubscribe/${unsubscribeToken}`,
  };
}
