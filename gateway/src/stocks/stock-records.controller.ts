import { SaveNoteSchema, SessionUser, TickerQuery, Topics, routes } from '@irp/proto';
import { Body, Controller, Query } from '@nestjs/common';
import { Route } from '../routing/route';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { ServicesClient } from '../kafka/services.client';

/** Admin records kept about a stock: notes, version history, widget referers. */
@Controller()
export class StockRecordsController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.stocks.notes)
  async notes(@Query() q: TickerQuery) {
    return (await this.services.request(Topics.StocksNotes, { combinedTicker: q.ticker })).notes;
  }

  @Route(routes.stocks.saveNote)
  async saveNote(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof SaveNoteSchema>) {
    const { note } = await this.services.request(Topics.StocksSaveNote, {
      actor,
      combinedTicker: body.ticker,
      details: body.details,
    });
    return { success: true as const, note };
  }

  @Route(routes.stocks.versionHistory)
  async versionHistory(@Query() q: TickerQuery) {
    return (await this.services.request(Topics.StocksVersionHistory, { combinedTicker: q.ticker })).versions;
  }

  @Route(routes.stocks.stockReferers)
  async stockReferers(@Query() q: TickerQuery) {
    return (await this.services.request(Topics.StocksReferers, { combinedTicker: q.ticker })).referers;
  }

  @Route(routes.stocks.referers)
  async referers() {
    return (await this.services.request(Topics.StocksAllReferers, {})).stocks;
  }
}
