import { MAX_REFERER_URL_LENGTH } from '@irp/proto';

/**
 * The page that used the widget, as the referers report shows it: the http(s) origin and path, cut to
 * MAX_REFERER_URL_LENGTH characters. No query or fragment (they may carry a visitor's personal data or
 * tokens) and no credentials. Anything else (no header, another scheme, unparsable) is not recorded.
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
  // origin + pathname leaves out credentials, query and fragment by construction.
  return `${url.origin}${url.pathname}`.slice(0, MAX_REFERER_URL_LENGTH);
}
