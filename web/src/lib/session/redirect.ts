/** Where a signed-out visitor was going; carried to /login in the router location state. */
export interface LoginRedirectState {
  from: { pathname: string; search: string; hash?: string };
}

export function loginRedirectState(location: {
  pathname: string;
  search: string;
  hash?: string;
}): LoginRedirectState {
  return { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The in-app path to return to after signing in (path + search + hash), or '/' when there is none.
 * Only same-origin paths are accepted, and never /login itself.
 */
export function redirectTargetFrom(state: unknown): string {
  if (!isRecord(state) || !isRecord(state.from)) return '/';
  const { pathname, search, hash } = state.from;
  if (typeof pathname !== 'string' || !pathname.startsWith('/') || pathname.startsWith('//')) return '/';
  if (/^\/login\/?$/i.test(pathname)) return '/';
  const query = typeof search === 'string' && search.startsWith('?') ? search : '';
  const fragment = typeof hash === 'string' && hash.startsWith('#') ? hash : '';
  return `${pathname}${query}${fragment}`;
}
