/** Parses `Authorization: Basic base64(username:password)`; undefined when absent or malformed. */
export function parseBasicAuth(
  header: string | undefined,
): { username: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  // No account has a NUL in its name or password; sent on, it was the users service's 500 (PostgreSQL).
  if (decoded.includes('\u0000')) return undefined;
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (!username.trim() || !password) return undefined;
  return { username, password };
}
