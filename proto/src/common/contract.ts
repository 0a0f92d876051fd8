import { z } from 'zod';
import type { RouteEntry } from './routes';

/**
 * How a service states its side of the protocol. Each `proto/src/<service>/index.ts` exports one
 * `defineServiceContract(...)`; `proto/src/index.ts` lists them and assembles the catalogues every part
 * uses (Topics, Services, RequestCatalogue, EventCatalogue).
 */

/** Every service answers `<service>.ping` (the gateway's /health asks it through Kafka). */
export const PingRequestSchema = z.object({}).passthrough();
export const PingReplySchema = z.object({ service: z.string(), instance: z.string(), at: z.string() });

/** One request topic of a service: `<service>.<verb-noun>`, answered on `<service>.reply`. */
export interface RequestDefinition {
  topic: string;
  request: z.ZodTypeAny;
  reply: z.ZodTypeAny;
  /**
   * The request changes state. Requesters never let a read share a round trip that started before such a
   * request finished (see the gateway's ServicesClient.shared), so a user always reads their own writes.
   */
  mutates?: true;
}

/** One event topic a service publishes (or, until its publisher has a contract, consumes). */
export interface EventDefinition {
  topic: string;
  schema: z.ZodTypeAny;
}

export interface RequestSpec {
  service: string;
  request: z.ZodTypeAny;
  reply: z.ZodTypeAny;
  mutates?: true;
}

/** `email-marketing` -> `EmailMarketing`: the prefix of a service's topic constants. */
export type PascalCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<S>;

const pascalCase = <S extends string>(s: S): PascalCase<S> =>
  s
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('') as PascalCase<S>;

type PingDefinitions<S extends string> = {
  [K in `${PascalCase<S>}Ping`]: {
    topic: `${S}.ping`;
    request: typeof PingRequestSchema;
    reply: typeof PingReplySchema;
  };
};

type TopicsOf<D extends Record<string, { topic: string }>> = { [K in keyof D]: D[K]['topic'] };

type RequestsByTopic<S extends string, R extends Record<string, RequestDefinition>> = {
  [K in keyof R as R[K]['topic']]: R[K] extends { mutates: true }
    ? { service: S; request: R[K]['request']; reply: R[K]['reply']; mutates: true }
    : { service: S; request: R[K]['request']; reply: R[K]['reply'] };
};

type EventsByTopic<E extends Record<string, EventDefinition>> = {
  [K in keyof E as E[K]['topic']]: { schema: E[K]['schema'] };
};

/** A service's REST routes (its route table group; see routes.ts). */
export type RouteGroup = Readonly<Record<string, RouteEntry>>;

export interface ServiceContract<
  S extends string = string,
  R extends Record<string, RequestDefinition> = Record<string, RequestDefinition>,
  E extends Record<string, EventDefinition> = Record<string, EventDefinition>,
  Rt extends RouteGroup = RouteGroup,
> {
  service: S;
  /** The gateway routes this service's contract declares, by name (`routes.stocks.save`). */
  routes: Rt;
  ping: `${S}.ping`;
  /** Constant name -> topic, for `Topics`. */
  topics: TopicsOf<PingDefinitions<S> & R> & TopicsOf<E>;
  requests: RequestsByTopic<S, PingDefinitions<S> & R>;
  events: EventsByTopic<E>;
}

/**
 * A service's contract: its request topics (request and reply schemas) and its events, keyed by the
 * constant name call sites use (`Topics.StocksSave`). The `<service>.ping` request is added here, so no
 * contract repeats it.
 */
export function defineServiceContract<
  const S extends string,
  const R extends Record<string, RequestDefinition>,
  const E extends Record<string, EventDefinition> = Record<never, EventDefinition>,
  const Rt extends RouteGroup = Record<never, RouteEntry>,
>(definition: { service: S; requests: R; events?: E; routes?: Rt }): ServiceContract<S, R, E, Rt> {
  const { service } = definition;
  const ping = `${service}.ping` as const;
  const all: Record<string, RequestDefinition> = {
    [`${pascalCase(service)}Ping`]: { topic: ping, request: PingRequestSchema, reply: PingReplySchema },
    ...definition.requests,
  };
  const events: Record<string, EventDefinition> = definition.events ?? {};
  const topics: Record<string, string> = {};
  const requests: Record<string, RequestSpec> = {};
  for (const [name, { topic, ...spec }] of Object.entries(all)) {
    topics[name] = topic;
    requests[topic] = { service, ...spec };
  }
  const eventSpecs: Record<string, { schema: z.ZodTypeAny }> = {};
  for (const [name, { topic, schema }] of Object.entries(events)) {
    topics[name] = topic;
    eventSpecs[topic] = { schema };
  }
  return {
    service,
    ping,
    topics,
    requests,
    events: eventSpecs,
    routes: definition.routes ?? {},
  } as unknown as ServiceContract<S, R, E, Rt>;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;
type Flatten<T> = { [K in keyof T]: T[K] };
type Merged<C extends readonly ServiceContract[], P extends 'topics' | 'requests' | 'events'> = Flatten<
  UnionToIntersection<C[number][P]>
>;

export interface Catalogue<C extends readonly ServiceContract[]> {
  Topics: Merged<C, 'topics'>;
  Services: { [K in C[number] as K['service']]: { ping: K['ping'] } };
  RequestCatalogue: Merged<C, 'requests'>;
  EventCatalogue: Merged<C, 'events'>;
  /** Service name -> its route group. */
  Routes: { [K in C[number] as Uncapitalize<PascalCase<K['service']>>]: K['routes'] };
}

/** Merges the service contracts into the catalogues; a topic or constant defined twice is a bug. */
export function assembleCatalogue<const C extends readonly ServiceContract[]>(contracts: C): Catalogue<C> {
  const topics: Record<string, string> = {};
  const services: Record<string, { ping: string }> = {};
  const requests: Record<string, RequestSpec> = {};
  const events: Record<string, { schema: z.ZodTypeAny }> = {};
  const routes: Record<string, RouteGroup> = {};
  const served: Record<string, string> = {};
  const once = (kind: string, table: Record<string, unknown>, key: string) => {
    if (key in table) throw new Error(`proto: ${kind} ${key} is defined by two service contracts`);
  };
  for (const contract of contracts) {
    once('service', services, contract.service);
    services[contract.service] = { ping: contract.ping };
    for (const [name, topic] of Object.entries(contract.topics as Record<string, string>)) {
      once('topic constant', topics, name);
      topics[name] = topic;
    }
    for (const [topic, spec] of Object.entries(contract.requests as Record<string, RequestSpec>)) {
      once('topic', requests, topic);
      requests[topic] = spec;
    }
    for (const [topic, spec] of Object.entries(contract.events as Record<string, { schema: z.ZodTypeAny }>)) {
      once('topic', events, topic);
      events[topic] = spec;
    }
    const group = pascalCase(contract.service);
    routes[group.charAt(0).toLowerCase() + group.slice(1)] = contract.routes;
    for (const entry of Object.values(contract.routes)) {
      const route = `${entry.method} ${entry.path.replace(/\/$/, '').toLowerCase()}`;
      if (route in served) throw new Error(`proto: ${route} is both ${served[route]} and ${entry.id}`);
      served[route] = entry.id;
    }
  }
  return {
    Routes: routes,
    Topics: topics,
    Services: services,
    RequestCatalogue: requests,
    EventCatalogue: events,
  } as unknown as Catalogue<C>;
}
