import { defineServiceContract } from '../common/contract';
import { stockRoutes } from './routes';
import { StockArchivedEventSchema, StockTickerChangedEventSchema, StockUpsertedEventSchema } from './events';
import {
  AllReferersReplySchema,
  AllReferersRequestSchema,
  ArchiveStockRequestSchema,
  ChangeTickerRequestSchema,
  ExchangesReplySchema,
  ExchangesRequestSchema,
  GetStockRequestSchema,
  GetStocksByIdRequestSchema,
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
  StockListPageReplySchema,
  StockListReplySchema,
  StockReferersReplySchema,
  StockReferersRequestSchema,
  StockReplySchema,
  VersionHistoryReplySchema,
  VersionHistoryRequestSchema,
  WidgetLookupReplySchema,
  WidgetLookupRequestSchema,
} from './messages';
import {
  AddressSuggestionsReplySchema,
  ArchiveOptionGroupRequestSchema,
  OptionGroupReplySchema,
  OptionGroupsReplySchema,
  OptionGroupsRequestSchema,
  SaveOptionGroupRequestSchema,
  SetDefaultOptionGroupRequestSchema,
  AddressSuggestionsRequestSchema,
  CreateStockFromOrderReplySchema,
  CreateStockFromOrderRequestSchema,
  ServiceOptionsReplySchema,
  ServiceOptionsRequestSchema,
  ServiceOrderOfStockReplySchema,
  ServiceOrderOfStockRequestSchema,
  ServiceOrderEmailMarketingReplySchema,
  ServiceOrderEmailMarketingRequestSchema,
  ServiceOrderStockCreatedEventSchema,
  ServiceOrderSubmittedEventSchema,
  ServiceOrdersReplySchema,
  ServiceOrdersRequestSchema,
  SubmitOrderReplySchema,
  SubmitOrderRequestSchema,
} from './orders';

export * from './events';
export * from './field-labels';
export * from './fields';
export * from './messages';
export * from './option-group-rules';
export * from './order-routes';
export * from './order-rules';
export * from './orders';
export * from './records';
export * from './stock-list';
export * from './rest';
export * from './routes';
export * from './rules';
export * from './stock';

/**
 * The stocks service: stocks, API keys, notes, version history, referers, the widget API's data, service
 * orders and their options (with the order form's address suggestions).
 */
export const stocksContract = defineServiceContract({
  service: 'stocks',
  routes: stockRoutes,
  requests: {
    StocksList: { topic: 'stocks.list', request: ListStocksRequestSchema, reply: StockListPageReplySchema },
    StocksGet: { topic: 'stocks.get', request: GetStockRequestSchema, reply: StockReplySchema },
    StocksGetByIds: {
      topic: 'stocks.get-by-ids',
      request: GetStocksByIdRequestSchema,
      reply: StockListReplySchema,
    },
    StocksResolve: {
      topic: 'stocks.resolve',
      request: ResolveStockRequestSchema,
      reply: ResolveStockReplySchema,
    },
    StocksSave: {
      topic: 'stocks.save',
      request: SaveStockRequestSchema,
      reply: StockReplySchema,
      mutates: true,
    },
    StocksChangeTicker: {
      topic: 'stocks.change-ticker',
      request: ChangeTickerRequestSchema,
      reply: StockReplySchema,
      mutates: true,
    },
    StocksArchive: {
      topic: 'stocks.archive',
      request: ArchiveStockRequestSchema,
      reply: StockReplySchema,
      mutates: true,
    },
    StocksNewApiKey: {
      topic: 'stocks.new-api-key',
      request: NewApiKeyRequestSchema,
      reply: NewApiKeyReplySchema,
    },
    StocksExchanges: {
      topic: 'stocks.exchanges',
      request: ExchangesRequestSchema,
      reply: ExchangesReplySchema,
    },
    StocksNotes: { topic: 'stocks.notes', request: NotesRequestSchema, reply: NotesReplySchema },
    StocksSaveNote: {
      topic: 'stocks.save-note',
      request: SaveNoteRequestSchema,
      reply: SaveNoteReplySchema,
      mutates: true,
    },
    StocksVersionHistory: {
      topic: 'stocks.version-history',
      request: VersionHistoryRequestSchema,
      reply: VersionHistoryReplySchema,
    },
    StocksReferers: {
      topic: 'stocks.referers',
      request: StockReferersRequestSchema,
      reply: StockReferersReplySchema,
    },
    StocksAllReferers: {
      topic: 'stocks.all-referers',
      request: AllReferersRequestSchema,
      reply: AllReferersReplySchema,
    },
    StocksWidgetLookup: {
      topic: 'stocks.widget-lookup',
      request: WidgetLookupRequestSchema,
      reply: WidgetLookupReplySchema,
    },
    StocksServiceOptions: {
      topic: 'stocks.service-options',
      request: ServiceOptionsRequestSchema,
      reply: ServiceOptionsReplySchema,
    },
    StocksSubmitServiceOrder: {
      topic: 'stocks.submit-service-order',
      request: SubmitOrderRequestSchema,
      reply: SubmitOrderReplySchema,
      mutates: true,
    },
    StocksServiceOrders: {
      topic: 'stocks.service-orders',
      request: ServiceOrdersRequestSchema,
      reply: ServiceOrdersReplySchema,
    },
    StocksCreateFromServiceOrder: {
      topic: 'stocks.create-from-service-order',
      request: CreateStockFromOrderRequestSchema,
      reply: CreateStockFromOrderReplySchema,
      mutates: true,
    },
    StocksServiceOrderOfStock: {
      topic: 'stocks.service-order-of-stock',
      request: ServiceOrderOfStockRequestSchema,
      reply: ServiceOrderOfStockReplySchema,
    },
    StocksServiceOrderEmailMarketing: {
      topic: 'stocks.service-order-email-marketing',
      request: ServiceOrderEmailMarketingRequestSchema,
      reply: ServiceOrderEmailMarketingReplySchema,
    },
    StocksOptionGroups: {
      topic: 'stocks.option-groups',
      request: OptionGroupsRequestSchema,
      reply: OptionGroupsReplySchema,
    },
    StocksSaveOptionGroup: {
      topic: 'stocks.save-option-group',
      request: SaveOptionGroupRequestSchema,
      reply: OptionGroupReplySchema,
      mutates: true,
    },
    StocksSetDefaultOptionGroup: {
      topic: 'stocks.set-default-option-group',
      request: SetDefaultOptionGroupRequestSchema,
      reply: OptionGroupReplySchema,
      mutates: true,
    },
    StocksArchiveOptionGroup: {
      topic: 'stocks.archive-option-group',
      request: ArchiveOptionGroupRequestSchema,
      reply: OptionGroupReplySchema,
      mutates: true,
    },
    StocksAddressSuggestions: {
      topic: 'stocks.address-suggestions',
      request: AddressSuggestionsRequestSchema,
      reply: AddressSuggestionsReplySchema,
    },
  },
  events: {
    StockUpserted: { topic: 'stock.upserted', schema: StockUpsertedEventSchema },
    StockTickerChanged: { topic: 'stock.ticker-changed', schema: StockTickerChangedEventSchema },
    StockArchived: { topic: 'stock.archived', schema: StockArchivedEventSchema },
    ServiceOrderSubmitted: { topic: 'service-order.submitted', schema: ServiceOrderSubmittedEventSchema },
    ServiceOrderStockCreated: {
      topic: 'service-order.stock-created',
      schema: ServiceOrderStockCreatedEventSchema,
    },
  },
});
