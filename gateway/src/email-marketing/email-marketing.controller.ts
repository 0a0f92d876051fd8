import { AppError } from '@irp/platform';
import {
  BOTH_KEYS_MESSAGE,
  DeliverabilityQuerySchema,
  EmailMarketingSettingsQuerySchema,
  ErrorCode,
  formatZodIssues,
  PROVIDER_API_KEY_HEADER,
  ProviderKeyHeaderSchema,
  SaveEmailMarketingSettingsBodySchema,
  SessionUser,
  Stock,
  StoredAnnouncement,
  SubscriberCountQuerySchema,
  TestSendBodySchema,
  Topics,
  routes,
} from '@irp/proto';
import { Body, Controller, Headers, Inject, Query } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { Route } from '../routing/route';
import { notFoundMessage, STOCK_RESOLVER, StockResolver } from '../routing/stock-resolver';
import type { z } from 'zod';
import { CheckedStockId, CurrentUser } from '../auth/decorators';
import { ServicesClient } from '../kafka/services.client';
import { BusSeal } from '../auth/bus-seal';

/** What the tab may show as the provider's answer: its own problems (bad key, unknown list, provider down). */
const PROVIDER_ANSWERS = new Set(['BAD_REQUEST', 'NOT_FOUND', 'SERVICE_UNAVAILABLE']);

/**
 * Spec section 7's email-marketing calls: a stock's settings, the provider's subscriber count, Send Test
 * Email and Send To Subscribers. Stocks are named by id, as the spec's calls do, except the test sends,
 * whose body names the stock by its product API key; EditMailchimp on the stock (or Admin) reads and
 * saves, TestSendAnnouncement test-sends, only admins send to subscribers.
 */
@Controller()
export class EmailMarketingController {
  constructor(
    private readonly services: ServicesClient,
    @Inject(STOCK_RESOLVER) private readonly stocks: StockResolver,
    private readonly seal: BusSeal,
  ) {}

  /**
   * A key typed and not saved comes in PROVIDER_API_KEY_HEADER, never the URL (the query's `apiKey` is
   * refused by its schema unless it names the stored key); none: the stock's stored key.
   */
  @Route(routes.emailMarketing.subscriberCount)
  @ApiHeader({
    name: PROVIDER_API_KEY_HEADER,
    required: false,
    description: "A provider API key typed and not saved yet (left out: the stock's saved key)",
  })
  async subscriberCount(
    @Query() query: z.output<typeof SubscriberCountQuerySchema>,
    @Headers(PROVIDER_API_KEY_HEADER) header: string | undefined,
  ) {
    const typed = ProviderKeyHeaderSchema.safeParse(header);
    if (!typed.success)
      throw new AppError(ErrorCode.BadRequest, formatZodIssues(typed.error, PROVIDER_API_KEY_HEADER));
    try {
      const { count } = await this.services.request(Topics.EmailMarketingSubscriberCount, {
        stockId: query.stockId ?? null,
        provider: query.provider,
        apiKey: this.seal.providerKey(typed.data || query.apiKey),
        listId: query.listId,
        clientId: query.clientId,
      });
      return { success: true, count, message: `${count.toLocaleString('en-AU')} subscribers` };
    } catch (err) {
      if (err instanceof AppError && PROVIDER_ANSWERS.has(err.code))
        return { success: false, count: null, message: err.message };
      throw err;
    }
  }

  /** The deliverability panel: the stock's mail per Sydney day, the complaint rate, the alert latencies. */
  @Route(routes.emailMarketing.deliverability)
  deliverability(@Query() query: z.output<typeof DeliverabilityQuerySchema>) {
    return this.services.request(Topics.EmailMarketingDeliverability, query);
  }

  @Route(routes.emailMarketing.settings)
  async settings(@Query() query: z.output<typeof EmailMarketingSettingsQuerySchema>) {
    const { settings } = await this.services.request(Topics.EmailMarketingGetSettings, { stockId: query.id });
    return {
      success: true,
      settings: settings ? { ...settings, stockId: query.id } : null,
      errorMessage: null,
    };
  }

  @Route(routes.emailMarketing.saveSettings)
  async save(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof SaveEmailMarketingSettingsBodySchema>,
  ) {
    const { settings } = await this.services.request(Topics.EmailMarketingSaveSettings, {
      actor,
      stockId: body.StockId,
      settings: { ...body.Settings, apiKey: this.seal.providerKey(body.Settings.apiKey) },
    });
    return {
      success: true,
      settings: settings ? { ...settings, stockId: body.StockId } : null,
      errorMessage: null,
    };
  }

  @Route(routes.emailMarketing.sendTestEmail)
  sendTestEmail(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof TestSendBodySchema>,
    @CheckedStockId() checked: string | undefined,
  ) {
    return this.testSend(actor, body, 'test', checked);
  }

  @Route(routes.emailMarketing.sendToSubscribers)
  sendToSubscribers(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof TestSendBodySchema>) {
    return this.testSend(actor, body, 'subscribers', undefined);
  }

  /**
   * Spec section 7's body: `apiKey` is the stock's product API key and names the stock (the guard checked
   * the caller's role on that stock and hands it over as `checked`; an admin passes without a lookup, so it
   * is resolved here then). A caller who may not see the product key (TestSendAnnouncement without
   * ViewConfig) leaves it blank and names the stock by `stockId`: the stock's stored key stands in for it,
   * and is never sent back. The settings as typed, `emailMarketingApiKey` as their key; what the body leaves
   * out the service takes from the saved settings. Either key missing: 400 with the spec's message (the
   * email-marketing key is checked by the service, which knows the saved one).
   */
  private async testSend(
    actor: SessionUser,
    body: z.output<typeof TestSendBodySchema>,
    mode: 'test' | 'subscribers',
    checked: string | undefined,
  ) {
    const { apiKey: productApiKey, emailMarketingApiKey, stockId: named, ...typed } = body;
    const stockId = checked ?? (productApiKey ? await this.stocks.stockIdOf('apiKey', productApiKey) : named);
    if (!stockId && !productApiKey) throw new AppError(ErrorCode.BadRequest, BOTH_KEYS_MESSAGE);
    if (!stockId) throw new AppError(ErrorCode.NotFound, notFoundMessage('apiKey', productApiKey));
    const stock = await this.stockOf(stockId);
    if (!productApiKey && !stock.apiKey) throw new AppError(ErrorCode.BadRequest, BOTH_KEYS_MESSAGE);
    const settings = Object.fromEntries(
      Object.entries({ ...typed, apiKey: this.seal.providerKey(emailMarketingApiKey) }).filter(
        ([, value]) => value !== undefined,
      ),
    );
    const reply = await this.services.request(Topics.EmailMarketingTestSend, {
      actor,
      stockId,
      mode,
      settings,
      announcement: await this.latestAnnouncement(actor, stock),
    });
    return { errorMessage: null, previewUrl: reply.previewUrl, message: reply.message };
  }

  /** The stock the send is for (its stored product key and its ticker for the announcements). */
  private async stockOf(stockId: string): Promise<Stock> {
    const { stocks } = await this.services.request(Topics.StocksGetByIds, { ids: [stockId] });
    const stock = stocks[0];
    if (!stock) throw new AppError('NOT_FOUND', 'Stock not found');
    return stock;
  }

  /** The stock's newest announcement not deleted (the campaign's content), or null (a sample is sent). */
  private async latestAnnouncement(actor: SessionUser, stock: Stock): Promise<StoredAnnouncement | null> {
    try {
      const { announcements } = await this.services.request(Topics.AnnouncementsList, {
        actor,
        combinedTicker: stock.combinedTicker,
        includeDeleted: false,
        // Newest first: the first is the one.
        limit: 1,
      });
      return announcements[0] ?? null;
    } catch {
      // The announcements service not answering does not stop a test send: a sample is sent instead.
      return null;
    }
  }
}
