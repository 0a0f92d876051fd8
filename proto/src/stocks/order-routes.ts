import { GlobalRole } from '../common/roles';
import { access, defineRoutes } from '../common/routes';
import {
  AddressQuerySchema,
  ArchiveOptionGroupSchema,
  OptionGroupIdSchema,
  OptionGroupListSchema,
  OptionGroupResponseSchema,
  SaveOptionGroupSchema,
  AddressSuggestionsSchema,
  CreateStockFromOrderResponseSchema,
  CreateStockFromOrderSchema,
  OrderFormSchema,
  OrderFormTokenResponseSchema,
  ServiceOptionListSchema,
  ServiceOptionsQuerySchema,
  ServiceOrderListSchema,
  ServiceOrderOfStockSchema,
  SubmitOrderResponseSchema,
} from './orders';
import { TickerQuerySchema } from './rest';

/**
 * The service order routes (docs/api/stocks.md, "Service orders"): spec section 7's Orders, part of the
 * stocks group (a service has one group; these are kept in their own file).
 */
export const serviceOrderRoutes = defineRoutes('stocks', {
  serviceOptions: {
    method: 'GET',
    path: '/api/serviceorder/services/',
    access: access.public(
      'the public order form shows the options and prices a prospective client picks from',
    ),
    summary:
      "The options of an option group, { options } (absent groupId: the default group's; an unknown or archived one: 404 saying so)",
    query: ServiceOptionsQuerySchema,
    response: ServiceOptionListSchema,
  },
  orderFormToken: {
    method: 'GET',
    path: '/api/serviceorder/form-token',
    access: access.public(
      'the public order form fetches it when it is shown; it signs the time and stores nothing',
    ),
    summary:
      'A signed token of the time the order form was shown: sent back as formToken, it is taken from ORDER_FORM_MIN_FILL_MS after until ORDER_FORM_TOKEN_MAX_AGE_MS after',
    response: OrderFormTokenResponseSchema,
  },
  submitOrder: {
    method: 'POST',
    path: '/api/serviceorder/',
    access: access.public(
      'prospective clients order before they have an account; rate-limited per address, presence-checked, time-checked (formToken), and it only stores the order for staff',
    ),
    summary:
      "Submit the order form with formToken from GET /api/serviceorder/form-token; a 400 lists each missing required field's message ('Company Name Required; ...'), or says the form token was missing, not valid, expired or too fresh; 429 past the per-address limit",
    body: OrderFormSchema,
    response: SubmitOrderResponseSchema,
  },
  addressSuggestions: {
    method: 'GET',
    path: '/api/serviceorder/addresses',
    access: access.public(
      "the order form's billing address autocomplete; rate-limited per address, it answers only address suggestions",
    ),
    summary:
      "Australian address suggestions for the order form; available: false when no address service is configured, or with a message once the address vendor's budget (global per minute and per day, per session) is spent (the form then takes plain text)",
    query: AddressQuerySchema,
    response: AddressSuggestionsSchema,
  },
  serviceOrders: {
    method: 'GET',
    path: '/api/admin/serviceOrders/',
    access: access.admin(),
    summary: 'Every service order, newest first',
    response: ServiceOrderListSchema,
  },
  createStockFromServiceOrder: {
    method: 'POST',
    path: '/api/admin/createStockFromServiceOrder/',
    access: access.admin(),
    summary:
      "Create the stock of a service order with the order's settings (ticker and accounting reference from the body) and mark the order created; the url is the new stock's page",
    body: CreateStockFromOrderSchema,
    response: CreateStockFromOrderResponseSchema,
  },
  optionGroups: {
    method: 'GET',
    path: '/api/admin/serviceOptionGroups',
    access: access.admin(),
    summary: 'Every option group with its options: the default first, then by name, archived ones last',
    response: OptionGroupListSchema,
  },
  saveOptionGroup: {
    method: 'POST',
    path: '/api/admin/saveServiceOptionGroup',
    access: access.admin(),
    summary:
      'Create an option group (no id) or edit one (its name and options; an option sent with its id keeps it); a 400 lists each problem; the first group becomes the default',
    body: SaveOptionGroupSchema,
    response: OptionGroupResponseSchema,
  },
  setDefaultOptionGroup: {
    method: 'POST',
    path: '/api/admin/setDefaultServiceOptionGroup',
    access: access.admin(),
    summary: 'Make a group the default: the one /new-order (no id) shows',
    body: OptionGroupIdSchema,
    response: OptionGroupResponseSchema,
  },
  archiveOptionGroup: {
    method: 'POST',
    path: '/api/admin/archiveServiceOptionGroup',
    access: access.admin(),
    summary:
      'Archive a group (its /new-order/{id} then says it is no longer offered; orders keep their option) or restore it (archived: false); the default group cannot be archived',
    body: ArchiveOptionGroupSchema,
    response: OptionGroupResponseSchema,
  },
  serviceOrderOfStock: {
    method: 'GET',
    path: '/api/admin/getServiceOrder',
    access: access.roles(GlobalRole.Admin, GlobalRole.InvoiceTotal),
    summary: 'The service order a stock was created from (the Invoices tab), or null',
    query: TickerQuerySchema,
    response: ServiceOrderOfStockSchema,
  },
});
