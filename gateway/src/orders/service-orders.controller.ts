import {
  ADDRESS_SUGGESTIONS_PAUSED_MESSAGE,
  AddressQuerySchema,
  ArchiveOptionGroupSchema,
  CreateStockFromOrderSchema,
  MIN_ADDRESS_QUERY,
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
import { createLogger } from '@irp/platform';
import { Body, Controller, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { ServicesClient } from '../kafka/services.client';
import { BusSeal } from '../auth/bus-seal';
import { Route } from '../routing/route';
import { clientAddressOf } from '../limits/public-limits';
import { OrderLimits } from './order-limits';

const log = createLogger('service-orders');

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
  ) {}

  @Route(routes.stocks.serviceOptions)
  options(@Query() q: z.output<typeof ServiceOptionsQuerySchema>) {
    // No group named: the group staff marked the default.
    return this.services.request(Topics.StocksServiceOptions, { groupId: q.groupId ?? '' });
  }

  @Route(routes.stocks.submitOrder)
  async submit(@Body() form: OrderForm, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    // Counted after validation (the pipe ran): a person completing a form is not held back.
    await this.limits.order(req, res);
    const { fax: honeypot, ...order } = form;
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
