import {
  ExchangeDto,
  GlobalRole,
  SaveStockResponseDto,
  SessionUser,
  Stock,
  StockListDto,
  Topics,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../auth/decorators';
import { SaveErrorFilter } from '../common/http-exception.filter';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { DashboardComposer } from '../dashboard/dashboard.composer';
import { DateRange } from '../dashboard/dashboard-contributor';
import { DateRangeQuerySchema } from '../dashboard/date-range';
import { ServicesClient } from '../kafka/services.client';
import { CachedStockDirectory } from './stock-directory.cache';
import {
  isAdmin,
  ReportRunnerStock,
  toAdminStockRow,
  toReportRunnerStock,
  toStockSummary,
} from './stock-views';
import {
  AdminSaveStockSchema,
  ArchiveStockSchema,
  ChangeTickerSchema,
  CombinedTickerParamSchema,
} from './stocks.schemas';
import type { z } from 'zod';

type StockChangeResponse = SaveStockResponseDto<Stock> & { success: true; stock: Stock; errorMessage: null };
const changed = (stock: Stock): StockChangeResponse => ({ success: true, stock, errorMessage: null });

/** Staff routes of the stock list and the stock page's Config tab (docs/api/stocks.md). */
@ApiTags('stocks')
@Controller('api')
export class StocksController {
  constructor(
    private readonly services: ServicesClient,
    private readonly composer: DashboardComposer,
    private readonly directory: CachedStockDirectory,
  ) {}

  @Get('admin/stocks')
  @Roles(GlobalRole.Admin, GlobalRole.RunReports)
  @ApiOperation({
    summary: 'The staff dashboard: every stock, with composed email-marketing and invoice columns',
    description:
      'Report-runners get only id, ticker, exchange, combinedTicker, companyName, created, websiteUrl, archived.',
  })
  @ApiQuery({
    name: 'startDate',
    required: false,
    description: 'ISO date; default the first of the current month',
  })
  @ApiQuery({
    name: 'endDate',
    required: false,
    description: 'ISO date; default the last of the current month',
  })
  async list(
    @CurrentUser() user: SessionUser,
    @Query(new ZodValidationPipe(DateRangeQuerySchema)) range: DateRange,
  ): Promise<StockListDto> {
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
  @UseFilters(SaveErrorFilter)
  @ApiOperation({ summary: 'Create (no id) or update a stock; errors carry success: false, stock: null' })
  async save(
    @CurrentUser() actor: SessionUser,
    @Body(new ZodValidationPipe(AdminSaveStockSchema)) body: z.infer<typeof AdminSaveStockSchema>,
  ): Promise<StockChangeResponse> {
    const { id, ...fields } = body;
    // A save never changes the ticker, exchange or id, so the combinedTicker -> id cache stays right.
    const { stock } = await this.services.request(Topics.StocksSave, { actor, mode: 'admin', id, fields });
    return changed(stock);
  }

  @Get('stock/:combinedTicker')
  @Roles(GlobalRole.Admin, GlobalRole.RunReports)
  @ApiOperation({ summary: 'One stock; report-runners get the summary fields plus completedInitialPoll' })
  @ApiParam({ name: 'combinedTicker', example: 'BHP:ASX' })
  async get(
    @CurrentUser() user: SessionUser,
    @Param('combinedTicker', new ZodValidationPipe(CombinedTickerParamSchema)) combinedTicker: string,
  ): Promise<Stock | ReportRunnerStock> {
    const { stock } = await this.services.request(Topics.StocksGet, { combinedTicker });
    return isAdmin(user) ? stock : toReportRunnerStock(stock);
  }

  @Post('admin/changeTicker')
  @HttpCode(200)
  @Roles(GlobalRole.Admin)
  @UseFilters(SaveErrorFilter)
  @ApiOperation({ summary: 'Change the ticker of a stock (its exchange stays)' })
  async changeTicker(
    @CurrentUser() actor: SessionUser,
    @Body(new ZodValidationPipe(ChangeTickerSchema)) body: z.infer<typeof ChangeTickerSchema>,
  ): Promise<StockChangeResponse> {
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
  @UseFilters(SaveErrorFilter)
  @ApiOperation({ summary: 'Archive or unarchive a stock (archived absent toggles)' })
  async archive(
    @CurrentUser() actor: SessionUser,
    @Body(new ZodValidationPipe(ArchiveStockSchema)) body: z.infer<typeof ArchiveStockSchema>,
  ): Promise<StockChangeResponse> {
    try {
      const { stock } = await this.services.request(Topics.StocksArchive, { actor, ...body });
      return changed(stock);
    } finally {
      this.directory.forget();
    }
  }

  @Get('admin/apiKey')
  @Roles(GlobalRole.Admin)
  @ApiOperation({ summary: 'A new unused API key; stored only when the stock is saved with it' })
  apiKey(): Promise<{ apiKey: string }> {
    return this.services.request(Topics.StocksNewApiKey, {});
  }

  @Get('admin/exchanges')
  @Roles(GlobalRole.Admin)
  @ApiOperation({ summary: 'The exchanges a stock can be on, with the [View on Exchange] URL template' })
  async exchanges(): Promise<ExchangeDto[]> {
    return (await this.services.request(Topics.StocksExchanges, {})).exchanges;
  }
}
