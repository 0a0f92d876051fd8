import { AppError, createLogger } from '@irp/platform';
import { combinedTickerOf, parseCombinedTicker, type EventOf, type Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from './stock-projection.entity';

const log = createLogger('stock-projection');

type StockEvent = EventOf<typeof Topics.StockUpserted>;

/** The service's projection of the stocks, kept from `stock.*` events; read by every feature here. */
@Injectable()
export class StockProjectionService {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(StockProjectionEntity);
  }

  /**
   * Applies a `stock.upserted` event; an event older than the one applied (redelivered, out of order) is
   * ignored. Returns the projection when it changed, null otherwise.
   */
  async apply(stock: StockEvent): Promise<StockProjectionEntity | null> {
    const row: StockProjectionEntity = Object.assign(new StockProjectionEntity(), {
      id: stock.id,
      ticker: stock.ticker,
      exchange: stock.exchange,
      combinedTicker: stock.combinedTicker,
      companyName: stock.companyName,
      websiteUrl: stock.websiteUrl,
      apiKey: stock.apiKey,
      archived: stock.archived,
      pollAsx: stock.pollAsx,
      subscriptionExpired: stock.subscriptionExpired,
      announcementStartYear: stock.announcementStartYear,
      sendPriceSensitiveAnnouncements: stock.sendPriceSensitiveAnnouncements,
      sendNonPriceSensitiveAnnouncements: stock.sendNonPriceSensitiveAnnouncements,
      autoSendAnnouncementEmail: stock.autoSendAnnouncementEmail,
      autoSendNonPriceSensitiveAnnouncements: stock.autoSendNonPriceSensitiveAnnouncements,
      autoSendFilter: stock.autoSendFilter,
      confirmationEmail: stock.confirmationEmail,
      announcementNotificationEmails: stock.announcementNotificationEmails,
      moderatorEmail: stock.moderatorEmail,
      announcementCommentTemplate: stock.announcementCommentTemplate,
      updatedAt: new Date(stock.updatedAt),
    });
    const columns = this.repo.metadata.columns.map((c) => c.databaseName).filter((c) => c !== 'id');
    // One statement: insert, or update only when this event is newer than the stored one.
    const result: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO announcements.stocks (id, ${columns.join(', ')})
       VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
       WHERE announcements.stocks.updated_at < EXCLUDED.updated_at
       RETURNING id`,
      [row.id, ...columns.map((c) => this.valueOf(row, c))],
    );
    if (!result.length) {
      log.debug({ stockId: stock.id }, 'stock.upserted not newer than the projection; ignored');
      return null;
    }
    return row;
  }

  private valueOf(row: StockProjectionEntity, column: string): unknown {
    const meta = this.repo.metadata.columns.find((c) => c.databaseName === column);
    return meta ? meta.getEntityValue(row) : null;
  }

  /** A stock by its combinedTicker ('BHP' alone means BHP:ASX); NOT_FOUND otherwise. */
  async byCombinedTicker(combinedTicker: string): Promise<StockProjectionEntity> {
    const ref = parseCombinedTicker(combinedTicker);
    if (!ref) throw new AppError('BAD_REQUEST', `${combinedTicker} is not a ticker:exchange`);
    const normalized = combinedTickerOf(ref.ticker, ref.exchange);
    const stock = await this.repo.findOne({
      where: { combinedTicker: normalized },
      order: { updatedAt: 'DESC' },
    });
    if (!stock) throw new AppError('NOT_FOUND', `Stock ${normalized} not found`);
    return stock;
  }

  async byId(id: string): Promise<StockProjectionEntity | null> {
    return this.repo.findOne({ where: { id } });
  }
}
