import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { NotesService } from './notes.service';

@Controller()
export class NotesHandlers {
  constructor(private readonly notes: NotesService) {}

  @HandleRequest(Topics.StocksNotes)
  async list(@Payload() req: HandledRequest<typeof Topics.StocksNotes>) {
    return { notes: await this.notes.list(req.combinedTicker) };
  }

  @HandleRequest(Topics.StocksSaveNote)
  async save(@Payload() req: HandledRequest<typeof Topics.StocksSaveNote>) {
    return { note: await this.notes.add(req.actor, req.combinedTicker, req.details) };
  }
}
