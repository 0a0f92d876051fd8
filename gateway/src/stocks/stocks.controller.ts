import {
  AdminSaveStockSchema,
  AdminStockPage,
  ArchiveStockSchema,
  ChangeTickerSchema,
  CombinedTickerParamsSchema,
  DateRange,
  DateRangeQuerySchema,
  ExchangeListSchema,
  GlobalRole,
  isAdmin,
  NewApiKeyReplySchema,
  ReportRunnerStock,
  SessionUser,
  Stock,
  StockChangeResponse,
  StockChangeResponseSchema,
  StockListSchema,
  StockPageSchema,
  Topics,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles } from '../auth/decorators';
import { Contract } from '../common/contract';
import { DashboardComposer } from '../dashboard/dashboard.composer';
import { ServicesClient } from '../kafka/services.client';
import { CachedStockDirectory } from './stock-directory.cache';
import { StockPageComposer } from './stock-page.composer';
import { toAdminStockRow, toReportRunnerStock, toStockSummary } from './stock-views';

const changed = (stock: Stock): StockChangeResponse => ({ success: true, stock, errorMessage: null });

/** Staff routes of the stock list and the stock page's Config tab (docs/api/stocks.md). */
@ApiTags('stocks')
@Controller('api')
export class StocksController {
  constructor(
    private readonly services: ServicesClient,
    private readonly composer: DashboardComposer,
    private readonly directory: CachedStockDirectory,
    private readonly stockPage: StockPageComposer,
  ) {}

  @Get('admin/stocks')
  @Roles(GlobalRole.Admin, GlobalRole.RunReports)
  @Contract({ query: DateRangeQuerySchema, response: StockListSchema })
  @ApiOperation({
    summary: 'The staff dashboard: every stock, with composed email-marketing and invoice columns',
    description:
      'Report-runners get only id, ticker, exchange, combinedTicker, companyName, created, websiteUrl, archived.',
  })
  async list(@CurrentUser() user: SessionUser, @Query() range: DateRange) {
    const { stocks } = await this.services.shared(Topics.StocksList, {});
    // Report-runners see no composed column, so the other services are not asked for them.
    if (!isAdmin(user)) return { stocks: stocks.map(toStockSummary), unavailable: [] };
    const composition = await this.composer.compose(
      stocks.map((s) => s.id),
      range,
    );
    return {
      stocks: stocks.map((s) => toAdminStockRow(s, composition.fieldsOf(s.id))),
      unavailable: composition.unavailable,
    };
  }

  @Post('admin/stocks')
  @HttpCode(200)
  @Roles(GlobalRole.Admin)
  @Contract({ body: AdminSaveStockSchema, response: StockChangeResponseSchema, save: true })
  @ApiOperation({ summary: 'Create (no id) or update a stock; errors carry success: false, stock: null' })
  async save(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof AdminSaveStockSchema>) {
    const { id, ...fields } = body;
    // A save never changes the ticker, exchange or id, so the combinedTicker -> id cache stays right.
    const { stock } = await this.services.request(Topics.StocksSave, { actor, mode: 'admin', id, fields });
    return changed(stock);
  }

  @Get('stock/:combinedTicker')
  @Roles(GlobalRole.Admin, GlobalRole.RunReports)
  @Contract({ params: CombinedTickerParamsSchema, response: StockPageSchema })
  @ApiOperation({
    summary:
      'One stock; for an admin with its announcements and initial poll (null, and named in unavailable, when the announcements service does not answer); report-runners get the summary fields plus completedInitialPoll',
  })
  async get(
    @CurrentUser() user: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
  ): Promise<AdminStockPage | ReportRunnerStock> {
    // Report-runners see no announcements, so the announcements service is not asked for them. For an
    // admin it is asked beside the stocks service (both resolve the same name), not after it.
    const announcements = isAdmin(user) ? this.stockPage.announcementsOf(combinedTicker) : undefined;
    const { stock } = await this.services.request(Topics.StocksGet, { combinedTicker });
    return announcements ? { ...stock, ...(await announcements) } : toReportRunnerStock(stock);
  }

  @Post('admin/changeTicker')
  @HttpCode(200)
  @Roles(GlobalRole.Admin)
  @Contract({ body: ChangeTickerSchema, response: StockChangeResponseSchema, save: true })
  @ApiOperation({ summary: 'Change the ticker of a stock (its exchange stays)' })
  async changeTicker(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof ChangeTickerSchema>) {
    try {
      const { stock } = await this.services.request(Topics.StocksChangeTicker, { actor, ...body });
      return changed(stock);
    } finally {
      // Even a failed or timed-out change may have happened: the old combinedTicker must not stay cached.
      this.directory.forget();
    }
  }

  @Post('admin/archiveStock')
  @HttpCode(200)
  @Roles(GlobalRole.Admin)
  @Contract({ body: ArchiveStockSchema, response: StockChangeResponseSchema, save: true })
  @ApiOperation({ summary: 'Archive or unarchive a stock (archived absent toggles)' })
  async archive(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof ArchiveStockSchema>) {
    try {
      const { stock } = await this.services.request(Topics.StocksArchive, { actor, ...body });
      return changed(stock);
    } finally {
      this.directory.forget();
    }
  }

  @Get('admin/apiKey')
  @Roles(GlobalRole.Admin)
  @Contract({ response: NewApiKeyReplySchema })
  @ApiOperation({ summary: 'A new unused API key; stored only when the stock is saved with it' })
  apiKey() {
    return this.services.request(Topics.StocksNewApiKey, {});
  }

  @Get('admin/exchanges')
  @Roles(GlobalRole.Admin)
  @Contract({ response: ExchangeListSchema })
  @ApiOperation({ summary: 'The exchanges a stock can be on, with the [View on Exchange] URL template' })
  async exchanges() {
    return (await this.services.request(Topics.StocksExchanges, {})).exchanges;
  }
}
