import {
  ClientDashboardDto,
  ClientStockDto,
  ErrorCode,
  SaveStockResponseDto,
  SessionUser,
  Stock,
  STOCK_ROLES,
  StockRole,
  Topics,
} from '@irp/proto';
import { AppError } from '@irp/platform';
import { Body, Controller, Get, HttpCode, Post, Query, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { hasStockRole } from '../auth/auth.guard';
import { CurrentUser, StockRoles } from '../auth/decorators';
import { SaveErrorFilter } from '../common/http-exception.filter';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { DashboardComposer } from '../dashboard/dashboard.composer';
import { currentMonth } from '../dashboard/date-range';
import { ServicesClient } from '../kafka/services.client';
import { stockRolesOf, toClientStockDto } from './stock-views';
import { ClientSaveStockSchema, CombinedTickerQuerySchema } from './stocks.schemas';

/** The client user's stocks: the client dashboard and the client stock page. */
@ApiTags('client stocks')
@Controller('api')
export class ClientStockController {
  constructor(
    private readonly services: ServicesClient,
    private readonly composer: DashboardComposer,
  ) {}

  @Get('ClientStock')
  @StockRoles([...STOCK_ROLES], 'query')
  @ApiOperation({ summary: 'The client form of a stock; needs any role on it' })
  @ApiQuery({ name: 'combinedTicker', example: 'BHP:ASX' })
  async get(
    @CurrentUser() user: SessionUser,
    @Query(new ZodValidationPipe(CombinedTickerQuerySchema)) q: z.infer<typeof CombinedTickerQuerySchema>,
  ): Promise<ClientStockDto> {
    const { stock } = await this.services.request(Topics.StocksGet, { combinedTicker: q.combinedTicker });
    // The guard checked the id its cache holds for this name; after a ticker change elsewhere that may be
    // another stock's, so the role is checked again on the stock actually read.
    if (!hasStockRole(user, stock.id, STOCK_ROLES))
      throw new AppError(
        ErrorCode.Forbidden,
        `You do not have the ${STOCK_ROLES.join(' or ')} permission on ${q.combinedTicker}`,
      );
    return (await this.toClientStocks(user, [stock]))[0];
  }

  @Post('ClientStock')
  @HttpCode(200)
  @StockRoles([StockRole.ViewConfig], 'body')
  @UseFilters(SaveErrorFilter)
  @ApiOperation({
    summary:
      'Client save of the client Config fields; needs ViewConfig, and ReplyToComment for moderator emails, logo and comment template',
  })
  async save(
    @CurrentUser() actor: SessionUser,
    @Body(new ZodValidationPipe(ClientSaveStockSchema)) body: z.infer<typeof ClientSaveStockSchema>,
  ): Promise<SaveStockResponseDto<ClientStockDto> & { success: true; stock: ClientStockDto }> {
    const { combinedTicker, ...fields } = body;
    const { stock } = await this.services.request(Topics.StocksSave, {
      actor,
      mode: 'client',
      combinedTicker,
      fields,
    });
    return { success: true, stock: (await this.toClientStocks(actor, [stock]))[0], errorMessage: null };
  }

  @Get('clientDashboard')
  @ApiOperation({
    summary: "The signed-in user's stocks (those in their stockRoles), archived ones left out",
  })
  async dashboard(@CurrentUser() user: SessionUser): Promise<ClientDashboardDto> {
    const ids = Object.keys(user.stockRoles);
    if (!ids.length) return { stocks: [] };
    const { stocks } = await this.services.request(Topics.StocksGetByIds, { ids });
    const live = stocks
      .filter((s) => !s.archived)
      .sort((a, b) => a.combinedTicker.localeCompare(b.combinedTicker));
    return { stocks: await this.toClientStocks(user, live) };
  }

  /**
   * The client form of stocks with the composed columns. The client dashboard has no date filter, so
   * contributors are asked about the current month (as the staff dashboard's default).
   */
  private async toClientStocks(user: SessionUser, stocks: Stock[]): Promise<ClientStockDto[]> {
    const composition = await this.composer.compose(
      stocks.map((s) => s.id),
      currentMonth(),
    );
    return stocks.map((s) => toClientStockDto(s, stockRolesOf(user, s.id), composition.fieldsOf(s.id)));
  }
}
