import {
  ADDRESS_SUGGESTIONS_PAUSED_MESSAGE,
  AddressQuerySchema,
  ArchiveOptionGroupSchema,
  CreateStockFromOrderSchema,
  ErrorCode,
  MIN_ADDRESS_QUERY,
  ORDER_FORM_TOKEN_MESSAGE,
  OptionGroupIdSchema,
  OrderForm,
  routes,
  SaveOptionGroupSchema,
  ServiceOptionsQuerySchema,
  SessionUser,
  stockPagePath,
  TickerQuery,
  Topics,
} from '@irp/proto';
import { randomUUID } from 'node:crypto';
import { AppError, createLogger } from '@irp/platform';
import { Body, Controller, Inject, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { ServicesClient } from '../kafka/services.client';
import { BusSeal } from '../auth/bus-seal';
import { Route } from '../routing/route';
import { clientAddressOf } from '../limits/public-limits';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { issueOrderFormToken, orderFormTokenProblem } from './order-form-token';
import { OrderLimits } from './order-limits';

const log = createLogger('service-orders');

type OrderFormConfig = Pick<
  GatewayConfig,
  'SESSION_SECRET' | 'ORDER_FORM_MIN_FILL_MS' | 'ORDER_FORM_TOKEN_MAX_AGE_MS'
>;

/**
 * Service orders (spec sections 2, 7; docs/api/stocks.md, "Service orders"): the public order form's
 * options, submit and address suggestions, and the staff Orders list with its create-stock action and
 * the option groups staff manage there.
 */
@Controller()
export class ServiceOrdersController {
  constructor(
    private readonly services: ServicesClient,
    private readonly limits: OrderLimits,
    private readonly seal: BusSeal,
    @Inject(GATEWAY_CONFIG) private readonly config: OrderFormConfig,
  ) {}

  @Route(routes.stocks.serviceOptions)
  options(@Query() q: z.output<typeof ServiceOptionsQuerySchema>) {
    // No group named: the group staff marked the default.
    return this.services.request(Topics.StocksServiceOptions, { groupId: q.groupId ?? '' });
  }

  @Route(routes.stocks.orderFormToken)
  formToken() {
    return { token: issueOrderFormToken(this.config.SESSION_SECRET, Date.now()) };
  }

  @Route(routes.stocks.submitOrder)
  async submit(@Body() form: OrderForm, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { fax: honeypot, formToken, ...order } = form;
    // Too fast for a person (or no token): one answer whatever the reason, which only the log names.
    const problem = orderFormTokenProblem(this.config.SESSION_SECRET, formToken, Date.now(), {
      minFillMs: this.config.ORDER_FORM_MIN_FILL_MS,
      maxAgeMs: this.config.ORDER_FORM_TOKEN_MAX_AGE_MS,
    });
    if (problem) {
      log.info({ address: clientAddressOf(req), problem }, 'order form refused: its form token');
      throw new AppError(ErrorCode.BadRequest, ORDER_FORM_TOKEN_MESSAGE);
    }
    // Counted after validation (the pipe ran): a person completing a form is not held back.
    await this.limits.order(req, res);
    // Only a bot fills the hidden field: it is told what a person is told and nothing is stored or mailed,
    // so it learns nothing to adapt to (what the form-spam defences answer).
    if (honeypot) {
      log.info({ address: clientAddressOf(req) }, 'order form honeypot filled: the order is dropped');
      return { success: true as const, id: randomUUID() };
    }
    // The form's email-marketing key is sealed for the email-marketing service, which alone applies it.
    const given = order.emailMarketing;
    const sealed = given
      ? { ...order, emailMarketing: { ...given, apiKey: this.seal.providerKey(given.apiKey) } }
      : order;
    const { id } = await this.services.request(Topics.StocksSubmitServiceOrder, { form: sealed });
    return { success: true as const, id };
  }

  @Route(routes.stocks.addressSuggestions)
  async addresses(
    @Query() q: z.output<typeof AddressQuerySchema>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.limits.addressLookup(req, res);
    // A lookup that reaches the vendor is paid for: past the budget, the form takes a plain address.
    if (q.q.length >= MIN_ADDRESS_QUERY && !(await this.limits.addressBudgetLeft(q.sessionToken, req)))
      return { available: false, suggestions: [], message: ADDRESS_SUGGESTIONS_PAUSED_MESSAGE };
    return this.services.request(Topics.StocksAddressSuggestions, q);
  }

  @Route(routes.stocks.serviceOrders)
  serviceOrders(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.StocksServiceOrders, { actor });
  }

  @Route(routes.stocks.createStockFromServiceOrder)
  async createStock(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof CreateStockFromOrderSchema>,
  ) {
    const { combinedTicker } = await this.services.request(Topics.StocksCreateFromServiceOrder, {
      actor,
      ...body,
    });
    return { url: stockPagePath(combinedTicker), errorMessage: null };
  }

  @Route(routes.stocks.optionGroups)
  optionGroups(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.StocksOptionGroups, { actor });
  }

  @Route(routes.stocks.saveOptionGroup)
  saveOptionGroup(@CurrentUser() actor: SessionUser, @Body() group: z.output<typeof SaveOptionGroupSchema>) {
    return this.services.request(Topics.StocksSaveOptionGroup, { actor, group });
  }

  @Route(routes.stocks.setDefaultOptionGroup)
  setDefaultOptionGroup(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof OptionGroupIdSchema>,
  ) {
    return this.services.request(Topics.StocksSetDefaultOptionGroup, { actor, id: body.id });
  }

  @Route(routes.stocks.archiveOptionGroup)
  archiveOptionGroup(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof ArchiveOptionGroupSchema>,
  ) {
    return this.services.request(Topics.StocksArchiveOptionGroup, { actor, ...body });
  }

  @Route(routes.stocks.serviceOrderOfStock)
  async serviceOrderOfStock(@Query() q: TickerQuery) {
    const { serviceOrder } = await this.services.request(Topics.StocksServiceOrderOfStock, {
      combinedTicker: q.ticker,
    });
    return serviceOrder;
  }
}
