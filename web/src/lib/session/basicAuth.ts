/** Base64 of a string's UTF-8 bytes (`btoa` alone throws on characters outside Latin-1). */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The Authorization header value of HTTP Basic authentication. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${base64Utf8(`${username}:${password}`)}`;
}
