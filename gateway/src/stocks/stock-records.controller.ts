import {
  AllReferersSchema,
  GlobalRole,
  NoteListSchema,
  RefererListSchema,
  SaveNoteResponseSchema,
  SaveNoteSchema,
  SessionUser,
  TickerQuery,
  TickerQuerySchema,
  Topics,
  VersionHistoryListSchema,
} from '@irp/proto';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles } from '../auth/decorators';
import { Contract } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';

/** Admin records kept about a stock: notes, version history, widget referers. */
@ApiTags('stocks')
@Controller('api/admin')
@Roles(GlobalRole.Admin)
export class StockRecordsController {
  constructor(private readonly services: ServicesClient) {}

  @Get('getNotes')
  @Contract({ query: TickerQuerySchema, response: NoteListSchema })
  @ApiOperation({ summary: 'Notes of a stock, newest first' })
  async notes(@Query() q: TickerQuery) {
    return (await this.services.request(Topics.StocksNotes, { combinedTicker: q.ticker })).notes;
  }

  @Post('saveNote')
  @HttpCode(200)
  @Contract({ body: SaveNoteSchema, response: SaveNoteResponseSchema })
  @ApiOperation({ summary: 'Add a note to a stock' })
  async saveNote(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof SaveNoteSchema>) {
    const { note } = await this.services.request(Topics.StocksSaveNote, {
      actor,
      combinedTicker: body.ticker,
      details: body.details,
    });
    return { success: true as const, note };
  }

  @Get('getStockVersionHistory')
  @Contract({ query: TickerQuerySchema, response: VersionHistoryListSchema })
  @ApiOperation({ summary: 'Every recorded change of a stock, newest first' })
  async versionHistory(@Query() q: TickerQuery) {
    return (await this.services.request(Topics.StocksVersionHistory, { combinedTicker: q.ticker })).versions;
  }

  @Get('stockReferers')
  @Contract({ query: TickerQuerySchema, response: RefererListSchema })
  @ApiOperation({ summary: 'Pages that used the widget API of a stock, most recent first' })
  async stockReferers(@Query() q: TickerQuery) {
    return (await this.services.request(Topics.StocksReferers, { combinedTicker: q.ticker })).referers;
  }

  @Get('referers')
  @Contract({ response: AllReferersSchema })
  @ApiOperation({ summary: 'Widget API hits and referers of every stock' })
  async referers() {
    return (await this.services.request(Topics.StocksAllReferers, {})).stocks;
  }
}
