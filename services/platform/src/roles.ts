/** The role every service has: the request/reply handlers the gateway calls (and the platform's ping). */
export const API_ROLE = 'api';

/**
 * The consumer group of one role of a service. `api` keeps the bare service name (the group every service
 * had before roles); other roles get `<service>.<role>`. Groups must differ per role: kafkajs's assigners
 * spread every subscribed topic's partitions over all members of a group, whatever each member subscribed
 * to, so two processes with different handlers in one group would each get partitions they cannot handle.
 */
export function consumerGroupOf(service: string, role: string): string {
  return role === API_ROLE ? service : `${service}.${role}`;
}

/**
 * Parses `ROLES` (a comma list) against the roles a service declares. Unset or blank means every role.
 * Returns the roles in the manifest's order, or the problem as text (for config validation).
 */
export function parseRoles(
  value: string | undefined,
  allowed: readonly string[],
): { ok: true; roles: string[] } | { ok: false; problem: string } {
  const asked = (value ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (!asked.length) return { ok: true, roles: [...allowed] };
  const unknown = asked.filter((r) => !allowed.includes(r));
  if (unknown.length) {
    return {
      ok: false,
      problem: `unknown role${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; this service's roles are ${allowed.join(', ')}`,
    };
  }
  return { ok: true, roles: allowed.filter((r) => asked.includes(r)) };
}
