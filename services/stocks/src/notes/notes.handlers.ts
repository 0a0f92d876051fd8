import { RequestOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { NotesService } from './notes.service';

@Controller()
export class NotesHandlers {
  constructor(private readonly notes: NotesService) {}

  @MessagePattern(Topics.StocksNotes)
  async list(@Payload() req: RequestOf<typeof Topics.StocksNotes>) {
    return { notes: await this.notes.list(req.combinedTicker) };
  }

  @MessagePattern(Topics.StocksSaveNote)
  async save(@Payload() req: RequestOf<typeof Topics.StocksSaveNote>) {
    return { note: await this.notes.add(req.actor, req.combinedTicker, req.details) };
  }
}
