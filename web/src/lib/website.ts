/**
 * Websites are stored as typed (often without a scheme); links need one, so http:// is prefixed for
 * display when missing (spec section 2, Config tab). Only http(s) links come out, so a stored value
 * like 'javascript://...' can never become a script link.
 */
export function websiteHref(url: string | null | undefined): string {
  const trimmed = (url ?? '').trim();
  if (!trimmed) return '';
  return /^https?:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

/** A URL safe to put in href (http or https), or null. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  const trimmed = (url ?? '').trim();
  return /^https?:\/\//i.test(trimmed) ? trimmed : null;
}
