import { createLogger, Outbox, SERVICE_CONFIG, UnitOfWork, type Tx } from '@irp/platform';
import { matchesAutoSendFilter, sendRequestTopicOf, type AnnouncementDetectedEvent } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { AnnouncementsConfig } from '../config';
import { randomUUID } from 'node:crypto';
import { toAnnouncement } from '../stored-announcements/announcement.mapper';
import { SystemSettingsService } from '../settings/system-settings.service';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { AutoSendRepository } from './auto-send.repository';
import { decideAutoSend, heldBackMessage, type AutoSendDecision } from './auto-send-rules';
import { ErrorReporter } from '../error-reports/error-reporter';

const log = createLogger('auto-send');

/** Who the send history and the email service see as the requester of an automatic send. */
export const AUTO_SEND_REQUESTER = 'auto-send';

/**
 * Automatic sending of newly polled announcements (poller role, from `announcement.detected`). The decision
 * is taken once per announcement (only while auto_send IS NULL, so a redelivered event does nothing), with
 * the stock's projection row locked, so the limits count every send of the stock decided before it. This
 * is the one place the auto-send rules are decided (channels, filter, age, hourly and daily limits): this
 * service holds every fact they need (the system settings, the stock's switches and filter, each
 * announcement's origin and release) and records each decision; the email-marketing service sends what an
 * `announcement.send-requested` asks and decides none of it again. The filter is matched before the
 * transaction (a linear-time engine, but a 10,000-character headline still takes a moment), so the row lock
 * is held only for counting and writing.
 */
@Injectable()
export class AutoSendService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly rows: AutoSendRepository,
    private readonly outbox: Outbox,
    private readonly settings: SystemSettingsService,
    private readonly reporter: ErrorReporter,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /** Decides for one detected announcement; returns the decision, or null when there was none to take. */
  async decide(event: AnnouncementDetectedEvent): Promise<AutoSendDecision | null> {
    // Initial polls, resyncs, reconciles and manual adds are marked not-automatic when stored.
    if (event.origin !== 'poll') return null;
    return this.decideFor(event.stockId, event.announcement.id);
  }

  /**
   * The poller's decisions for what its poll just stored (and whose documents it fetched), in the poll:
   * a price-sensitive announcement's send is requested without waiting for its `announcement.detected` to
   * come back through the poller role's consumer, which fetches again only once the poll handlers of its
   * last fetch are done (kafkajs); in the reporting-season burst that wait was p50 287 / p95 760 ms
   * (bench/README.md, burst). The event still decides whatever this did not (a poller that died in
   * between, a database that failed here): whichever comes second finds it decided.
   */
  async decideStored(stockId: string, announcementIds: readonly string[]): Promise<void> {
    for (const id of announcementIds) {
      try {
        await this.decideFor(stockId, id);
      } catch (err) {
        log.warn(
          { err, stockId, announcementId: id },
          'auto-send not decided in the poll; its event decides',
        );
        return;
      }
    }
  }

  private async decideFor(stockId: string, announcementId: string): Promise<AutoSendDecision | null> {
    // Decided already (in the poll, or a redelivered event): one read, no lock.
    const before = await this.rows.filterFacts(stockId, announcementId);
    if (!before) return null;
    const { hourlyAutoSendLimit, dailyAutoSendLimit } = await this.settings.entity();
    const matchedBefore = matchesAutoSendFilter(before.headline, before.filter);
    return this.unitOfWork.run(async (tx) => {
      const stock = await this.rows.lockStock(tx, stockId);
      if (!stock) return null;
      const row = await this.rows.announcement(tx, announcementId);
      if (!row || row.autoSend !== null || row.deletedOn) return null;
      const counts = await this.rows.recentSends(tx, stock.id);
      // Matched again only when the filter or the headline changed in between (a save racing the poll).
      const unchanged = before.filter === stock.autoSendFilter && before.headline === row.headline;
      const decision = decideAutoSend({
        origin: row.origin,
        priceSensitive: row.priceSensitive,
        switches: stock,
        matchesFilter: unchanged ? matchedBefore : matchesAutoSendFilter(row.headline, stock.autoSendFilter),
        sentLastHour: counts.hour,
        sentLastDay: counts.day,
        hourlyLimit: hourlyAutoSendLimit,
        dailyLimit: dailyAutoSendLimit,
        releasedAt: row.releasedAt,
        detectedAt: row.createdAt,
        maxAgeMs: this.config.AUTO_SEND_MAX_AGE_HOURS * 3_600_000,
      });
      if (!(await this.rows.markDecided(tx, row.id, decision))) return null;
      if (decision.state === 'requested') await this.requestSend(tx, stock, row.id, decision);
      if (decision.state === 'held-hourly' || decision.state === 'held-daily') {
        const limit = decision.state === 'held-hourly' ? hourlyAutoSendLimit : dailyAutoSendLimit;
        await this.reporter.report(
          `auto-send-held:${row.id}`,
          `Automatic send held back: ${stock.combinedTicker}`,
          heldBackMessage(stock.ticker, row.headline, decision.state, limit),
          tx,
        );
      }
      log.info({ stockId: stock.id, sendGuid: row.sendGuid, decision: decision.state }, 'auto-send decided');
      return decision;
    });
  }

  private async requestSend(
    tx: Tx,
    stock: StockProjectionEntity,
    announcementId: string,
    decision: AutoSendDecision,
  ): Promise<void> {
    const updated = await this.rows.announcementOrFail(tx, announcementId);
    await this.outbox.add(tx, sendRequestTopicOf(updated), stock.id, {
      requestId: randomUUID(),
      stockId: stock.id,
      combinedTicker: stock.combinedTicker,
      channels: decision.channels,
      override: false,
      auto: true,
      requestedBy: AUTO_SEND_REQUESTER,
      requestedAt: (updated.autoSendAt ?? new Date()).toISOString(),
      announcement: toAnnouncement(updated),
    });
  }
}
