import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoteEntity } from './note.entity';

/** Staff notes on stocks; the only place that queries their table. */
@Injectable()
export class NotesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(NoteEntity);
  }

  /** Newest first. */
  ofStock(stockId: string): Promise<NoteEntity[]> {
    return this.repo.find({ where: { stockId }, order: { date: 'DESC', id: 'ASC' } });
  }

  /** Stores a note and reads it back as stored. */
  async add(note: Pick<NoteEntity, 'stockId' | 'date' | 'user' | 'details'>): Promise<NoteEntity> {
    const inserted = await this.repo.insert(note);
    const id = (inserted.identifiers[0] as { id: string }).id;
    return this.repo.findOneByOrFail({ id });
  }
}
