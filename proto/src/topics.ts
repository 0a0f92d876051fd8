import { z } from 'zod';
import {
  AuthenticateRequestSchema,
  LogoutReplySchema,
  LogoutRequestSchema,
  PingReplySchema,
  PingRequestSchema,
  RefreshRequestSchema,
  SessionGrantSchema,
  SessionRequestSchema,
  SessionUserSchema,
  UserUpsertedEventSchema,
} from './users';

/**
 * The topic catalogue. Request topics are `<service>.<verb-noun>` (each has a `.reply` topic), events are
 * `<entity>.<past-tense>`, and every topic has a `.dlq` for messages that failed validation.
 * Call sites use these constants, never string literals.
 */
export const Topics = {
  UsersPing: 'users.ping',
  UsersAuthenticate: 'users.authenticate',
  UsersSession: 'users.session',
  UsersRefresh: 'users.refresh',
  UsersLogout: 'users.logout',
  UserUpserted: 'user.upserted',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

/** The services that exist, and the ping topic the gateway's /health asks each. */
export const Services = {
  users: { ping: Topics.UsersPing },
} as const;
export type ServiceName = keyof typeof Services;

interface RequestSpec {
  service: ServiceName;
  request: z.ZodTypeAny;
  reply: z.ZodTypeAny;
}

export const RequestCatalogue = {
  [Topics.UsersPing]: { service: 'users', request: PingRequestSchema, reply: PingReplySchema },
  [Topics.UsersAuthenticate]: {
    service: 'users',
    request: AuthenticateRequestSchema,
    reply: SessionGrantSchema,
  },
  [Topics.UsersSession]: { service: 'users', request: SessionRequestSchema, reply: SessionUserSchema },
  [Topics.UsersRefresh]: { service: 'users', request: RefreshRequestSchema, reply: SessionGrantSchema },
  [Topics.UsersLogout]: { service: 'users', request: LogoutRequestSchema, reply: LogoutReplySchema },
} as const satisfies Record<string, RequestSpec>;

export const EventCatalogue = {
  [Topics.UserUpserted]: { schema: UserUpsertedEventSchema },
} as const satisfies Record<string, { schema: z.ZodTypeAny }>;

export type RequestTopic = keyof typeof RequestCatalogue;
export type EventTopic = keyof typeof EventCatalogue;
export type RequestOf<T extends RequestTopic> = z.input<(typeof RequestCatalogue)[T]['request']>;
export type ReplyOf<T extends RequestTopic> = z.infer<(typeof RequestCatalogue)[T]['reply']>;
export type EventOf<T extends EventTopic> = z.infer<(typeof EventCatalogue)[T]['schema']>;

export const replyTopic = (topic: string): string => `${topic}.reply`;
export const dlqTopic = (topic: string): string => `${topic}.dlq`;

export function isRequestTopic(topic: string): topic is RequestTopic {
  return Object.prototype.hasOwnProperty.call(RequestCatalogue, topic);
}
export function isEventTopic(topic: string): topic is EventTopic {
  return Object.prototype.hasOwnProperty.call(EventCatalogue, topic);
}

export interface TopicPlan {
  name: string;
  partitions: number;
}

export interface TopicPlanOptions {
  /** Partitions of request and event topics (consumer instances of one service can scale to this). */
  partitions?: number;
  /** Partitions of `.reply` topics: at least the number of gateway instances. */
  replyPartitions?: number;
}

/**
 * Every topic the system uses, created up front by deploy/local (nothing relies on auto-creation):
 * request topics and their `.reply` topics, event topics, and a `.dlq` for each request and event topic.
 */
export function allTopics({ partitions = 3, replyPartitions = 4 }: TopicPlanOptions = {}): TopicPlan[] {
  const plan: TopicPlan[] = [];
  for (const topic of Object.keys(RequestCatalogue)) {
    plan.push({ name: topic, partitions });
    plan.push({ name: replyTopic(topic), partitions: Math.max(replyPartitions, 1) });
    plan.push({ name: dlqTopic(topic), partitions: 1 });
  }
  for (const topic of Object.keys(EventCatalogue)) {
    plan.push({ name: topic, partitions });
    plan.push({ name: dlqTopic(topic), partitions: 1 });
  }
  return plan;
}
