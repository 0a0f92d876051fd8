/**
 * REST DTOs of spec section 7 that the web app shares with the gateway.
 */

/** GET /api/admin/refreshtoken and GET /api/login: the session user. */
export interface SessionUserDto {
  username: string;
  user: { id: string; username: string };
  /** Keyed by role name (spec section 3: "roles (object keyed by role name)"). */
  roles: Record<string, boolean>;
  /** Stock id -> roles. */
  stockRoles: Record<string, string[]>;
}

/** Error body of every non-2xx answer from the gateway. */
export interface ApiErrorDto {
  statusCode: number;
  error: string;
  message: string;
  errorMessage: string;
}

/** GET /health of the gateway. */
export interface GatewayHealthDto {
  status: 'ok' | 'degraded';
  services: Record<string, { status: 'up' | 'down'; latencyMs?: number; error?: string }>;
}

/** Cookie and header names of the session and CSRF protection. */
export const SESSION_COOKIE = 'irp_session';
export const REFRESH_COOKIE = 'irp_refresh';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';

/**
 * One row of GET /api/admin/stocks (the staff dashboard). The stock's own fields come from the stocks
 * service; `emailMarketing`, `invoice` and `repeatingInvoice` are composed in by the gateway from the
 * services that own them (null until such a service contributes, or when it did not answer).
 * Report-runners get only the summary fields (Ticker, Created, Website).
 */
export interface StockRowDto {
  id: string;
  ticker: string;
  exchange: string;
  combinedTicker: string;
  companyName: string;
  created: string;
  websiteUrl: string;
  archived: boolean;
  apiKey?: string | null;
  pollAsx?: boolean;
  subscriptionExpired?: boolean;
  emailMarketing?: boolean | null;
  invoice?: DashboardInvoiceDto | null;
  repeatingInvoice?: DashboardRepeatingInvoiceDto | null;
}

/** The latest invoice of a stock as the dashboards show it. Money in integer cents. */
export interface DashboardInvoiceDto {
  invoiceId: string;
  invoiceNumber: string;
  totalCents: number;
  /** ISO date of the invoice. */
  date: string;
  /** The accounting system's status, e.g. PAID or AUTHORISED. */
  status: string;
  unpaid: boolean;
  /** Unpaid and more than 90 days since the invoice date (spec section 4). */
  overdue: boolean;
  daysLate: number;
}

export interface DashboardRepeatingInvoiceDto {
  repeatingInvoiceId: string;
  amountCents: number;
  nextScheduledDate: string | null;
  /** Link to the repeating invoice in the accounting system. */
  url: string | null;
}

/** GET /api/admin/stocks: the rows plus which composed parts could not be fetched. */
export interface StockListDto {
  stocks: StockRowDto[];
  /** Names of contributing services that did not answer; their columns are null. */
  unavailable: string[];
}

/** POST /api/admin/stocks and POST /api/ClientStock (spec section 7: success, stock, errorMessage). */
export interface SaveStockResponseDto<TStock = unknown> {
  success: boolean;
  stock: TStock | null;
  errorMessage: string | null;
}

/**
 * The client-facing form of a stock (spec section 3: "Client-facing form adds combinedTicker,
 * email-marketing flag, invoiceId, invoiceTotal, invoiceStatus, invoiceDate, invoiceNumber"): GET
 * /api/ClientStock/?combinedTicker and each row of GET /api/clientDashboard/.
 */
export interface ClientStockDto {
  id: string;
  combinedTicker: string;
  ticker: string;
  exchange: string;
  companyName: string;
  created: string;
  apiKey: string | null;
  websiteUrl: string;
  confirmationEmail: string;
  contactEmail: string;
  announcementNotificationEmails: string;
  sendPriceSensitiveAnnouncements: boolean;
  sendNonPriceSensitiveAnnouncements: boolean;
  autoSendAnnouncementEmail: boolean;
  autoSendNonPriceSensitiveAnnouncements: boolean;
  autoSendFilter: string;
  moderatorEmail: string;
  companyLogoUrl: string;
  announcementCommentTemplate: string;
  completedInitialPoll: boolean;
  /** The roles the signed-in user holds on this stock (all of them for an admin). */
  roles: string[];
  emailMarketing: boolean | null;
  invoiceId: string | null;
  /** Dollars. */
  invoiceTotal: number | null;
  /** PAID or the accounting system's other status. */
  invoiceStatus: string | null;
  invoiceDate: string | null;
  invoiceNumber: string | null;
}

/** GET /api/clientDashboard/ (spec: "returns stocks"). */
export interface ClientDashboardDto {
  stocks: ClientStockDto[];
}
