/**
 * The protocol: one folder per service (`users/`, `stocks/`: topics, messages, events, REST shapes,
 * rules) and `common/` (envelope, dates, roles, the error body, the contract helpers). This file
 * assembles the catalogues every other part uses from the service contracts.
 *
 * The contracts come from `./services.generated` (not committed): scripts/proto-services.mjs writes it from
 * services/manifest.json on npm install, on every build and in `make lint`, importing `<camelName>Contract`
 * from each `proto/src/<name>/index.ts`. Adding a service (npm run new:service) is its folder and its
 * manifest entry; nothing here changes.
 */
import {
  assembleCatalogue,
  gatewayRoutes,
  planTopics,
  RouteEntry,
  routeList,
  TopicPlan,
  TopicPlanOptions,
} from './common/index';
import { z } from 'zod';
import { SERVICE_CONTRACTS } from './services.generated';

export * from './common/index';
// Every service's folder (`export * from './<name>/index'`), from the generated list.
export * from './services.generated';

const catalogue = assembleCatalogue(SERVICE_CONTRACTS);

/** Every topic constant (`Topics.StocksSave`); call sites use these, never string literals. */
export const Topics = catalogue.Topics;
export type Topic = (typeof Topics)[keyof typeof Topics];

/** The services that exist, and the ping topic the gateway's /health asks each. */
export const Services = catalogue.Services;
export type ServiceName = keyof typeof Services;

/**
 * The ping topic of a service named at run time (a manifest entry), or undefined when proto has no contract
 * for it: the platform answers it, the gateway's /health asks it.
 */
export function pingTopicOf(service: string): RequestTopic | undefined {
  return (Services as Readonly<Record<string, { ping: RequestTopic }>>)[service]?.ping;
}

/**
 * The topic of an announcement's send request: a price-sensitive announcement's has its own, which the
 * sender takes in a consumer of its own (docs/adr/0018), so it never waits behind a routine send's expansion.
 */
export const sendRequestTopicOf = (announcement: { priceSensitive: boolean }) =>
  announcement.priceSensitive ? Topics.AnnouncementPrioritySendRequested : Topics.AnnouncementSendRequested;

/**
 * The route table: service group (camelCase) -> route name -> entry, e.g. `routes.stocks.save`
 * (common/routes.ts). The gateway binds each handler to its entry; the web app calls through its mirror.
 */
export const routes = { ...catalogue.Routes, gateway: gatewayRoutes } as const;
export type RouteTable = typeof routes;

/** Every entry of the table. */
export const allRoutes = (): RouteEntry[] => routeList(routes);

/** Request topic -> { service, request schema, reply schema, mutates? }. */
export const RequestCatalogue = catalogue.RequestCatalogue;
/** Event topic -> { schema }. */
export const EventCatalogue = catalogue.EventCatalogue;

export type RequestTopic = keyof typeof RequestCatalogue;
export type EventTopic = keyof typeof EventCatalogue;
export type RequestOf<T extends RequestTopic> = z.input<(typeof RequestCatalogue)[T]['request']>;
export type ReplyOf<T extends RequestTopic> = z.infer<(typeof RequestCatalogue)[T]['reply']>;
export type EventOf<T extends EventTopic> = z.infer<(typeof EventCatalogue)[T]['schema']>;

export function isRequestTopic(topic: string): topic is RequestTopic {
  return Object.prototype.hasOwnProperty.call(RequestCatalogue, topic);
}
export function isEventTopic(topic: string): topic is EventTopic {
  return Object.prototype.hasOwnProperty.call(EventCatalogue, topic);
}

/**
 * Every topic the system uses, created up front by deploy/local (nothing relies on auto-creation):
 * request topics, each answering service's `<service>.reply`, event topics, and a `.dlq` for each request
 * and event topic.
 */
export const allTopics = (options: TopicPlanOptions = {}): TopicPlan[] =>
  planTopics(Object.keys(RequestCatalogue), Object.keys(EventCatalogue), options);
