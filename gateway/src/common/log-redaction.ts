import { allRoutes, pathParams } from '@irp/proto';

/** A query or path parameter whose value is a credential: API keys, tokens, passwords, secrets, sessions. */
const SECRET_NAME = /key|token|pass|secret|signature|session/i;
export const REDACTED = 'REDACTED';

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * The route table's paths with a credential as a path parameter (the confirm and unsubscribe links'
 * `{token}`), as patterns whose groups are those parameters. Built from the table, so a new such route is
 * covered without a list kept here; matched whether or not the request reached the route (a wrong method
 * is logged too). Each also without `/api`: the web app's page of the same link (`/subscription/
 * unsubscribe/{token}`), which the gateway serves in production.
 */
const SECRET_PATHS: RegExp[] = allRoutes()
  .filter((r) => pathParams(r.path).some((p) => SECRET_NAME.test(p)))
  .flatMap((r) => [r.path, r.path.replace(/^\/api\//, '/')])
  .map((path) => {
    const source = path
      .split(/(\{[A-Za-z0-9_]+\})/)
      .map((part) => {
        const name = /^\{([A-Za-z0-9_]+)\}$/.exec(part)?.[1];
        if (!name) return escape(part);
        return SECRET_NAME.test(name) ? '([^/]+)' : '[^/]+';
      })
      .join('');
    return new RegExp(`^${source}/?$`, 'i');
  });

function redactPath(path: string): string {
  for (const pattern of SECRET_PATHS) {
    const m = pattern.exec(path);
    if (!m) continue;
    // Replace the captured segments from the right, so earlier indices stay valid.
    let out = path;
    let end = path.length;
    for (let i = m.length - 1; i >= 1; i--) {
      const value = m[i];
      if (value === undefined) continue;
      const at = out.lastIndexOf(`/${value}`, end);
      if (at < 0) continue;
      out = `${out.slice(0, at + 1)}${REDACTED}${out.slice(at + 1 + value.length)}`;
      end = at;
    }
    return out;
  }
  return path;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judged as written.
      }
      return eq >= 0 && SECRET_NAME.test(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * A request URL as it may be logged: credential-like query values (`apiKey`, tokens, passwords) and
 * token path segments replaced by REDACTED; everything else as requested.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return redactPath(url);
  return `${redactPath(url.slice(0, q))}?${redactQuery(url.slice(q + 1))}`;
}
