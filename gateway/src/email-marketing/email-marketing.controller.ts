import { AppError } from '@irp/platform';
import {
  Announcement,
  EmailMarketingSettingsQuerySchema,
  EmailMarketingSettingsResponseSchema,
  GlobalRole,
  SaveEmailMarketingSettingsBodySchema,
  SessionUser,
  StockRole,
  SubscriberCountQuerySchema,
  SubscriberCountResponseSchema,
  TestSendBodySchema,
  TestSendResponseSchema,
  Topics,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles, StockRolesById } from '../auth/decorators';
import { Contract } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';

/** What the tab may show as the provider's answer: its own problems (bad key, unknown list, provider down). */
const PROVIDER_ANSWERS = new Set(['BAD_REQUEST', 'NOT_FOUND', 'SERVICE_UNAVAILABLE']);

/**
 * Spec section 7's email-marketing calls: a stock's settings, the provider's subscriber count, Send Test
 * Email and Send To Subscribers. Stocks are named by id here (as the spec's calls do); EditMailchimp on the
 * stock (or Admin) reads and saves, TestSendAnnouncement test-sends, only admins send to subscribers.
 */
@ApiTags('email-marketing')
@Controller('api')
export class EmailMarketingController {
  constructor(private readonly services: ServicesClient) {}

  @Get('EmailMarketingSubscriberCount')
  @StockRolesById([StockRole.EditMailchimp], 'query', 'stockId')
  @Contract({ query: SubscriberCountQuerySchema, response: SubscriberCountResponseSchema })
  @ApiOperation({
    summary:
      "The provider's subscriber count of a list, with the keys as typed; success false with the message",
  })
  async subscriberCount(@Query() query: z.output<typeof SubscriberCountQuerySchema>) {
    try {
      const { count } = await this.services.request(Topics.EmailMarketingSubscriberCount, {
        stockId: query.stockId ?? null,
        provider: query.provider,
        apiKey: query.apiKey,
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

  @Get('emailMarketingSettings')
  @StockRolesById([StockRole.EditMailchimp], 'query', 'id')
  @Contract({ query: EmailMarketingSettingsQuerySchema, response: EmailMarketingSettingsResponseSchema })
  @ApiOperation({
    summary: "A stock's email-marketing settings (id = stock id); settings null when none saved",
  })
  async settings(@Query() query: z.output<typeof EmailMarketingSettingsQuerySchema>) {
    const { settings } = await this.services.request(Topics.EmailMarketingGetSettings, { stockId: query.id });
    return {
      success: true,
      settings: settings ? { ...settings, stockId: query.id } : null,
      errorMessage: null,
    };
  }

  @Post('emailMarketingSettings')
  @HttpCode(200)
  @StockRolesById([StockRole.EditMailchimp], 'body', 'StockId')
  @Contract({ body: SaveEmailMarketingSettingsBodySchema, response: EmailMarketingSettingsResponseSchema })
  @ApiOperation({ summary: "Save a stock's email-marketing settings (body StockId, Settings)" })
  async save(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof SaveEmailMarketingSettingsBodySchema>,
  ) {
    const { settings } = await this.services.request(Topics.EmailMarketingSaveSettings, {
      actor,
      stockId: body.StockId,
      settings: body.Settings,
    });
    return {
      success: true,
      settings: settings ? { ...settings, stockId: body.StockId } : null,
      errorMessage: null,
    };
  }

  @Post('TestSendAnnouncement/sendTestEmail')
  @HttpCode(200)
  @StockRolesById([StockRole.TestSendAnnouncement], 'body', 'stockId')
  @Contract({ body: TestSendBodySchema, response: TestSendResponseSchema })
  @ApiOperation({
    summary:
      "Send Test Email: a campaign of the stock's latest announcement, test-sent to the test addresses",
  })
  sendTestEmail(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof TestSendBodySchema>) {
    return this.testSend(actor, body, 'test');
  }

  @Post('TestSendAnnouncement/sendToSubscribers')
  @HttpCode(200)
  @Roles(GlobalRole.Admin)
  @Contract({ body: TestSendBodySchema, response: TestSendResponseSchema })
  @ApiOperation({
    summary: 'Send To Subscribers (admins): refused when the list has more than 5 subscribers',
  })
  sendToSubscribers(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof TestSendBodySchema>) {
    return this.testSend(actor, body, 'subscribers');
  }

  private async testSend(
    actor: SessionUser,
    body: z.output<typeof TestSendBodySchema>,
    mode: 'test' | 'subscribers',
  ) {
    const { stockId, ...settings } = body;
    const reply = await this.services.request(Topics.EmailMarketingTestSend, {
      actor,
      stockId,
      mode,
      settings,
      announcement: await this.latestAnnouncement(stockId),
    });
    return { errorMessage: null, previewUrl: reply.previewUrl, message: reply.message };
  }

  /** The stock's newest announcement not deleted (the campaign's content), or null (a sample is sent). */
  private async latestAnnouncement(stockId: string): Promise<Announcement | null> {
    const { stocks } = await this.services.request(Topics.StocksGetByIds, { ids: [stockId] });
    const stock = stocks[0];
    if (!stock) throw new AppError('NOT_FOUND', 'Stock not found');
    try {
      const { announcements } = await this.services.request(Topics.AnnouncementsList, {
        combinedTicker: stock.combinedTicker,
        includeDeleted: false,
      });
      return [...announcements].sort((a, b) => b.date.localeCompare(a.date))[0] ?? null;
    } catch {
      // The announcements service not answering does not stop a test send: a sample is sent instead.
      return null;
    }
  }
}
