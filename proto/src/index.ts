/**
 * The protocol: one folder per service (`users/`, `stocks/`: topics, messages, events, REST shapes,
 * rules) and `common/` (envelope, dates, roles, the error body, the contract helpers). This file lists
 * the service contracts and assembles the catalogues every other part uses.
 *
 * Adding a service `<name>` (npm run new:service does it): the folder `proto/src/<name>/` whose index.ts
 * exports `<name>Contract = defineServiceContract({ service: '<name>', requests, events })`, and one line
 * in each of the three lists below.
 */
import { assembleCatalogue, planTopics, TopicPlan, TopicPlanOptions } from './common/index';
import { z } from 'zod';
import { stocksContract } from './stocks/index';
import { usersContract } from './users/index';

export * from './common/index';
export * from './stocks/index';
export * from './users/index';

// prettier-ignore
const SERVICE_CONTRACTS = [
  usersContract,
  stocksContract,
] as const;

const catalogue = assembleCatalogue(SERVICE_CONTRACTS);

/** Every topic constant (`Topics.StocksSave`); call sites use these, never string literals. */
export const Topics = catalogue.Topics;
export type Topic = (typeof Topics)[keyof typeof Topics];

/** The services that exist, and the ping topic the gateway's /health asks each. */
export const Services = catalogue.Services;
export type ServiceName = keyof typeof Services;

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
 * request topics and their `.reply` topics, event topics, and a `.dlq` for each request and event topic.
 */
export const allTopics = (options: TopicPlanOptions = {}): TopicPlan[] =>
  planTopics(Object.keys(RequestCatalogue), Object.keys(EventCatalogue), options);
