import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * The SSRF guard's address and host rules (VendorHttpClient): which addresses are public, which configured
 * hosts are local stand-ins, and how a vendor's host patterns match.
 */

/** Whether `address` is a public unicast address (IPv4-mapped IPv6 judged as the IPv4 it carries). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

export const effectivePort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** A configured base URL that names a local stand-in rather than the vendor (may resolve privately). */
export function isStandInHost(hostname: string): boolean {
  const host = bareHost(hostname);
  return isIP(host) !== 0 || host === 'localhost' || !host.includes('.');
}

export function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p;
}
