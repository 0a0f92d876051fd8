/** Longest referer kept (WidgetLookupRequestSchema's limit). */
export const MAX_REFERER_LENGTH = 500;

/**
 * The page that used the widget, as the referers report shows it: an http(s) URL without query,
 * fragment or credentials (a query may carry a visitor's personal data or tokens). Anything else (no
 * header, another scheme, unparsable, or still too long once stripped) is not recorded.
 */
export function widgetReferer(header: string | undefined): string | undefined {
  const raw = header?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.search = '';
  url.hash = '';
  url.username = '';
  url.password = '';
  const text = url.href;
  return text.length <= MAX_REFERER_LENGTH ? text : undefined;
}
