import { Actor, ErrorCode, Note } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { requireAdmin } from '../stocks/stock-rules';
import { StockReads } from '../stocks/stock-reads';
import { NoteEntity } from './note.entity';
import { NotesRepository } from './notes.repository';

export const EMPTY_NOTE_MESSAGE = 'Please enter the note details';

const toNote = (n: NoteEntity): Note => ({
  id: n.id,
  date: n.date.toISOString(),
  user: n.user,
  details: n.details,
});

/** Staff notes on a stock (the Notes tab). */
@Injectable()
export class NotesService {
  constructor(
    private readonly notes: NotesRepository,
    private readonly stocks: StockReads,
  ) {}

  /** Newest first. */
  async list(combinedTicker: string): Promise<Note[]> {
    const stock = await this.stocks.requireByCombinedTicker(combinedTicker);
    return (await this.notes.ofStock(stock.id)).map(toNote);
  }

  async add(actor: Actor, combinedTicker: string, details: string, date = new Date()): Promise<Note> {
    requireAdmin(actor, 'add notes');
    if (!details.trim()) throw new AppError(ErrorCode.BadRequest, EMPTY_NOTE_MESSAGE);
    const stock = await this.stocks.requireByCombinedTicker(combinedTicker);
    return toNote(await this.notes.add({ stockId: stock.id, date, user: actor.username, details }));
  }
}
