import { GlobalRole, Note, Referer, SessionUser, StockReferers, Topics, VersionHistory } from '@irp/proto';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles } from '../auth/decorators';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { ServicesClient } from '../kafka/services.client';
import { SaveNoteSchema, TickerQuerySchema } from './stocks.schemas';

const tickerQuery = new ZodValidationPipe(TickerQuerySchema);
type TickerQuery = z.infer<typeof TickerQuerySchema>;

/** Admin records kept about a stock: notes, version history, widget referers. */
@ApiTags('stocks')
@Controller('api/admin')
@Roles(GlobalRole.Admin)
export class StockRecordsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('getNotes')
  @ApiOperation({ summary: 'Notes of a stock, newest first' })
  @ApiQuery({ name: 'ticker', description: 'combinedTicker, e.g. BHP:ASX' })
  async notes(@Query(tickerQuery) q: TickerQuery): Promise<Note[]> {
    return (await this.services.request(Topics.StocksNotes, { combinedTicker: q.ticker })).notes;
  }

  @Post('saveNote')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add a note to a stock' })
  async saveNote(
    @CurrentUser() actor: SessionUser,
    @Body(new ZodValidationPipe(SaveNoteSchema)) body: z.infer<typeof SaveNoteSchema>,
  ): Promise<{ success: true; note: Note }> {
    const { note } = await this.services.request(Topics.StocksSaveNote, {
      actor,
      combinedTicker: body.ticker,
      details: body.details,
    });
    return { success: true, note };
  }

  @Get('getStockVersionHistory')
  @ApiOperation({ summary: 'Every recorded change of a stock, newest first' })
  @ApiQuery({ name: 'ticker', description: 'combinedTicker, e.g. BHP:ASX' })
  async versionHistory(@Query(tickerQuery) q: TickerQuery): Promise<VersionHistory[]> {
    return (await this.services.request(Topics.StocksVersionHistory, { combinedTicker: q.ticker })).versions;
  }

  @Get('stockReferers')
  @ApiOperation({ summary: 'Pages that used the widget API of a stock, most recent first' })
  @ApiQuery({ name: 'ticker', description: 'combinedTicker, e.g. BHP:ASX' })
  async stockReferers(@Query(tickerQuery) q: TickerQuery): Promise<Referer[]> {
    return (await this.services.request(Topics.StocksReferers, { combinedTicker: q.ticker })).referers;
  }

  @Get('referers')
  @ApiOperation({ summary: 'Widget API hits and referers of every stock' })
  async referers(): Promise<StockReferers[]> {
    return (await this.services.request(Topics.StocksAllReferers, {})).stocks;
  }
}
