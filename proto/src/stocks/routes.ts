import { DateRangeQuerySchema } from '../common/date-range';
import { GlobalRole, STOCK_ROLES, StockRole } from '../common/roles';
import { access, defineRoutes, RestrictedFields } from '../common/routes';
import { CLIENT_CONFIG_FIELDS, CLIENT_INVOICE_FIELDS, REPLY_TO_COMMENT_FIELDS } from './fields';
import { NewApiKeyReplySchema } from './messages';
import { serviceOrderRoutes } from './order-routes';
import { WidgetStockSchema } from './records';
import {
  AdminSaveStockSchema,
  AllReferersSchema,
  ArchiveStockSchema,
  ChangeTickerSchema,
  ClientDashboardSchema,
  ClientSaveStockSchema,
  ClientStockChangeResponseSchema,
  ClientStockSchema,
  CombinedTickerParamsSchema,
  CombinedTickerQuerySchema,
  ExchangeListSchema,
  NoteListSchema,
  RefererListSchema,
  SaveNoteResponseSchema,
  SaveNoteSchema,
  StockChangeResponseSchema,
  StockListSchema,
  StockPageSchema,
  TickerQuerySchema,
  VersionHistoryListSchema,
} from './rest';

/**
 * A client stock in a response keeps only the fields the caller's roles on that stock allow (which is why
 * ClientStockSchema has them optional: ROLE_RESTRICTED_CLIENT_FIELDS).
 */
const clientStockFields = (at: string): RestrictedFields => ({
  at,
  rules: [
    { fields: CLIENT_CONFIG_FIELDS, stockRoles: [StockRole.ViewConfig] },
    { fields: REPLY_TO_COMMENT_FIELDS, stockRoles: [StockRole.ReplyToComment] },
    { fields: CLIENT_INVOICE_FIELDS, stockRoles: [StockRole.Invoicing] },
  ],
});

/** The stock routes (docs/api/stocks.md): spec section 7's Stocks and Notes, and the widget's stock. */
const stockRecordRoutes = defineRoutes('stocks', {
  list: {
    method: 'GET',
    path: '/api/admin/stocks',
    access: access.roles(GlobalRole.Admin, GlobalRole.RunReports),
    summary: 'The staff dashboard: every stock, with composed email-marketing and invoice columns',
    description:
      'Report-runners get only id, ticker, exchange, combinedTicker, companyName, created, websiteUrl, archived; ' +
      "those holding InvoiceTotal get repeatingInvoice too (what 'Repeating Invoice Total' sums). " +
      'The body is the list; the X-Unavailable-Services header names the composing services that did not ' +
      'answer (their columns are null), comma separated, empty when all answered.',
    query: DateRangeQuerySchema,
    response: StockListSchema,
  },
  save: {
    method: 'POST',
    path: '/api/admin/stocks',
    access: access.admin(),
    summary: 'Create (no id) or update a stock; errors carry success: false, stock: null',
    body: AdminSaveStockSchema,
    response: StockChangeResponseSchema,
    save: true,
  },
  get: {
    method: 'GET',
    path: '/api/stock/{combinedTicker}',
    access: access.roles(GlobalRole.Admin, GlobalRole.RunReports),
    summary:
      'One stock; for an admin with its announcements and initial poll (null, and named in unavailable, when the announcements service does not answer); report-runners get the summary fields plus completedInitialPoll',
    params: CombinedTickerParamsSchema,
    response: StockPageSchema,
  },
  changeTicker: {
    method: 'POST',
    path: '/api/admin/changeTicker',
    access: access.admin(),
    summary: 'Change the ticker of a stock (its exchange stays)',
    body: ChangeTickerSchema,
    response: StockChangeResponseSchema,
    save: true,
  },
  archive: {
    method: 'POST',
    path: '/api/admin/archiveStock',
    access: access.admin(),
    summary: 'Archive or unarchive a stock (archived absent toggles)',
    body: ArchiveStockSchema,
    response: StockChangeResponseSchema,
    save: true,
  },
  newApiKey: {
    method: 'GET',
    path: '/api/admin/apiKey',
    access: access.admin(),
    summary: 'A new unused API key; stored only when the stock is saved with it',
    response: NewApiKeyReplySchema,
  },
  exchanges: {
    method: 'GET',
    path: '/api/admin/exchanges/',
    access: access.admin(),
    summary: 'The exchanges a stock can be on, with the [View on Exchange] URL template',
    response: ExchangeListSchema,
  },
  clientGet: {
    method: 'GET',
    path: '/api/ClientStock/',
    access: access.stock(STOCK_ROLES, { from: 'query', key: 'combinedTicker' }),
    summary: 'The client form of a stock; needs any role on it, and shows only the fields those roles allow',
    query: CombinedTickerQuerySchema,
    response: ClientStockSchema,
    restricted: [clientStockFields('')],
  },
  clientSave: {
    method: 'POST',
    path: '/api/ClientStock',
    access: access.stock([StockRole.ViewConfig], { from: 'body', key: 'combinedTicker' }),
    summary:
      'Client save of the client Config fields; needs ViewConfig, and ReplyToComment for moderator emails, logo and comment template',
    body: ClientSaveStockSchema,
    response: ClientStockChangeResponseSchema,
    save: true,
    restricted: [clientStockFields('stock')],
  },
  clientDashboard: {
    method: 'GET',
    path: '/api/clientDashboard/',
    access: access.anySignedIn(),
    summary:
      "The signed-in user's own stocks (those in their stockRoles), archived ones left out; each with only the fields the user's roles on it allow",
    response: ClientDashboardSchema,
    restricted: [clientStockFields('stocks[]')],
  },
  notes: {
    method: 'GET',
    path: '/api/admin/getNotes',
    access: access.admin(),
    summary: 'Notes of a stock, newest first',
    query: TickerQuerySchema,
    response: NoteListSchema,
  },
  saveNote: {
    method: 'POST',
    path: '/api/admin/saveNote',
    access: access.admin(),
    summary: 'Add a note to a stock',
    body: SaveNoteSchema,
    response: SaveNoteResponseSchema,
  },
  versionHistory: {
    method: 'GET',
    path: '/api/admin/getStockVersionHistory',
    access: access.admin(),
    summary: 'Every recorded change of a stock, newest first',
    query: TickerQuerySchema,
    response: VersionHistoryListSchema,
  },
  stockReferers: {
    method: 'GET',
    path: '/api/admin/stockReferers',
    access: access.admin(),
    summary: 'Pages that used the widget API of a stock, most recent first',
    query: TickerQuerySchema,
    response: RefererListSchema,
  },
  referers: {
    method: 'GET',
    path: '/api/admin/referers',
    access: access.admin(),
    summary: 'Widget API hits and referers of every stock',
    response: AllReferersSchema,
  },
  widgetStock: {
    method: 'GET',
    path: '/api/widget/stock',
    access: access.widget(),
    summary:
      'The stock of an API key (CORS *); 401 no or unknown key, 404 archived or expired, 429 rate limit',
    response: WidgetStockSchema,
  },
});

/** The stocks group of the route table: the stock routes and the service order routes (order-routes.ts). */
export const stockRoutes = { ...stockRecordRoutes, ...serviceOrderRoutes } as const;
