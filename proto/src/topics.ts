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
import {
  AllReferersReplySchema,
  AllReferersRequestSchema,
  ArchiveStockRequestSchema,
  ChangeTickerRequestSchema,
  ExchangesReplySchema,
  ExchangesRequestSchema,
  GetStockRequestSchema,
  GetStocksByIdRequestSchema,
  InitialPollEventSchema,
  ListStocksRequestSchema,
  NewApiKeyReplySchema,
  NewApiKeyRequestSchema,
  NotesReplySchema,
  NotesRequestSchema,
  ResolveStockReplySchema,
  ResolveStockRequestSchema,
  SaveNoteReplySchema,
  SaveNoteRequestSchema,
  SaveStockRequestSchema,
  StockArchivedEventSchema,
  StockListReplySchema,
  StockReferersReplySchema,
  StockReferersRequestSchema,
  StockReplySchema,
  StockTickerChangedEventSchema,
  StockUpsertedEventSchema,
  VersionHistoryReplySchema,
  VersionHistoryRequestSchema,
  WidgetLookupReplySchema,
  WidgetLookupRequestSchema,
} from './stocks';

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

  StocksPing: 'stocks.ping',
  StocksList: 'stocks.list',
  StocksGet: 'stocks.get',
  StocksGetByIds: 'stocks.get-by-ids',
  StocksResolve: 'stocks.resolve',
  StocksSave: 'stocks.save',
  StocksChangeTicker: 'stocks.change-ticker',
  StocksArchive: 'stocks.archive',
  StocksNewApiKey: 'stocks.new-api-key',
  StocksExchanges: 'stocks.exchanges',
  StocksNotes: 'stocks.notes',
  StocksSaveNote: 'stocks.save-note',
  StocksVersionHistory: 'stocks.version-history',
  StocksReferers: 'stocks.referers',
  StocksAllReferers: 'stocks.all-referers',
  StocksWidgetLookup: 'stocks.widget-lookup',
  StockUpserted: 'stock.upserted',
  StockTickerChanged: 'stock.ticker-changed',
  StockArchived: 'stock.archived',
  InitialPollStarted: 'initial-poll.started',
  InitialPollCompleted: 'initial-poll.completed',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

/** The services that exist, and the ping topic the gateway's /health asks each. */
export const Services = {
  users: { ping: Topics.UsersPing },
  stocks: { ping: Topics.StocksPing },
} as const;
export type ServiceName = keyof typeof Services;

export interface RequestSpec {
  service: ServiceName;
  request: z.ZodTypeAny;
  reply: z.ZodTypeAny;
  /**
   * The request changes state. Requesters never let a read share a round trip that started before such a
   * request finished (see the gateway's ServicesClient.shared), so a user always reads their own writes.
   */
  mutates?: true;
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

  [Topics.StocksPing]: { service: 'stocks', request: PingRequestSchema, reply: PingReplySchema },
  [Topics.StocksList]: { service: 'stocks', request: ListStocksRequestSchema, reply: StockListReplySchema },
  [Topics.StocksGet]: { service: 'stocks', request: GetStockRequestSchema, reply: StockReplySchema },
  [Topics.StocksGetByIds]: {
    service: 'stocks',
    request: GetStocksByIdRequestSchema,
    reply: StockListReplySchema,
  },
  [Topics.StocksResolve]: {
    service: 'stocks',
    request: ResolveStockRequestSchema,
    reply: ResolveStockReplySchema,
  },
  [Topics.StocksSave]: {
    service: 'stocks',
    request: SaveStockRequestSchema,
    reply: StockReplySchema,
    mutates: true,
  },
  [Topics.StocksChangeTicker]: {
    service: 'stocks',
    request: ChangeTickerRequestSchema,
    reply: StockReplySchema,
    mutates: true,
  },
  [Topics.StocksArchive]: {
    service: 'stocks',
    request: ArchiveStockRequestSchema,
    reply: StockReplySchema,
    mutates: true,
  },
  [Topics.StocksNewApiKey]: {
    service: 'stocks',
    request: NewApiKeyRequestSchema,
    reply: NewApiKeyReplySchema,
  },
  [Topics.StocksExchanges]: {
    service: 'stocks',
    request: ExchangesRequestSchema,
    reply: ExchangesReplySchema,
  },
  [Topics.StocksNotes]: { service: 'stocks', request: NotesRequestSchema, reply: NotesReplySchema },
  [Topics.StocksSaveNote]: {
    service: 'stocks',
    request: SaveNoteRequestSchema,
    reply: SaveNoteReplySchema,
    mutates: true,
  },
  [Topics.StocksVersionHistory]: {
    service: 'stocks',
    request: VersionHistoryRequestSchema,
    reply: VersionHistoryReplySchema,
  },
  [Topics.StocksReferers]: {
    service: 'stocks',
    request: StockReferersRequestSchema,
    reply: StockReferersReplySchema,
  },
  [Topics.StocksAllReferers]: {
    service: 'stocks',
    request: AllReferersRequestSchema,
    reply: AllReferersReplySchema,
  },
  [Topics.StocksWidgetLookup]: {
    service: 'stocks',
    request: WidgetLookupRequestSchema,
    reply: WidgetLookupReplySchema,
  },
} as const satisfies Record<string, RequestSpec>;

export const EventCatalogue = {
  [Topics.UserUpserted]: { schema: UserUpsertedEventSchema },
  [Topics.StockUpserted]: { schema: StockUpsertedEventSchema },
  [Topics.StockTickerChanged]: { schema: StockTickerChangedEventSchema },
  [Topics.StockArchived]: { schema: StockArchivedEventSchema },
  [Topics.InitialPollStarted]: { schema: InitialPollEventSchema },
  [Topics.InitialPollCompleted]: { schema: InitialPollEventSchema },
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
