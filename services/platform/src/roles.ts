/** The role every service has: the request/reply handlers the gateway calls (and the platform's ping). */
export const API_ROLE = 'api';

/**
 * Topics a role's processes consume in consumer groups of their own, beside the role's group: per role, a
 * name per group and its topics (services/manifest.json `consumers`). kafkajs fetches again only when every
 * batch of its last fetch has been handled, so a topic whose messages must not wait behind the role's slow
 * work (a send request behind delivery batches and expansions) gets a consumer of its own in the same
 * process (docs/adr/0018).
 */
export type RoleConsumers = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

/** What the naming of consumer groups needs from a manifest entry. */
export interface ConsumingService {
  name: string;
  roles: readonly string[];
  consumers?: RoleConsumers;
}

/**
 * The consumer group of one role of a service. `api` keeps the bare service name (the group every service
 * had before roles); other roles get `<service>.<role>`; a role's own consumer (RoleConsumers) adds its name,
 * `<service>.<role>.<consumer>`. Groups must differ per role: kafkajs's assigners spread every subscribed
 * topic's partitions over all members of a group, whatever each member subscribed to, so two processes with
 * different handlers in one group would each get partitions they cannot handle.
 */
export function consumerGroupOf(service: string, role: string, consumer?: string): string {
  const group = role === API_ROLE ? service : `${service}.${role}`;
  return consumer ? `${group}.${consumer}` : group;
}

/** The consumer group in which a service's role consumes `topic`. */
export function topicGroupOf(service: ConsumingService, role: string, topic: string): string {
  const own = Object.entries(service.consumers?.[role] ?? {}).find(([, topics]) => topics.includes(topic));
  return consumerGroupOf(service.name, role, own?.[0]);
}

/** Every consumer group of a service: per role, the role's group and then one per consumer of its own. */
export function consumerGroupsOf(service: ConsumingService): string[] {
  return service.roles.flatMap((role) => [
    consumerGroupOf(service.name, role),
    ...Object.keys(service.consumers?.[role] ?? {}).map((c) => consumerGroupOf(service.name, role, c)),
  ]);
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
