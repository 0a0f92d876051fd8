import { AppError, createLogger, SealedInbox } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { EmailSettingsRepository } from './email-settings.repository';
import { settingsOfOrder } from './email-settings-rules';
import { openedProviderKey } from './sealed-provider-key';
import { ServiceOrderSettingsSource } from './service-order-settings.source';

const log = createLogger('email-settings');

/**
 * A stock made from a service order starts with the email-marketing settings the prospective client gave on
 * the order form (`service-order.stock-created`): asked of the stocks service, stored as the stock's
 * settings (the key sealed like every provider key), only when the stock has none yet, so a redelivered
 * event or a save made meanwhile is never overwritten.
 */
@Injectable()
export class ApplyOrderSettings {
  constructor(
    private readonly settings: EmailSettingsRepository,
    private readonly orders: ServiceOrderSettingsSource,
    private readonly inbox: SealedInbox,
  ) {}

  async run(event: EventOf<typeof Topics.ServiceOrderStockCreated>): Promise<void> {
    if (!event.emailMarketing) return;
    const about = { serviceOrderId: event.serviceOrderId, stock: event.combinedTicker };
    if (await this.settings.get(event.stockId)) {
      log.info(about, "the stock has email-marketing settings already; the order's are not applied");
      return;
    }
    const given = await this.orders.of(event.serviceOrderId);
    if (!given) return;
    const { settings, dropped } = settingsOfOrder({ ...given, apiKey: this.keyOf(given.apiKey, about) });
    if (dropped) log.warn({ ...about, dropped }, "part of the order's email-marketing settings left out");
    const applied = await this.settings.insertIfAbsent(event.by, event.stockId, settings);
    log.info({ ...about, applied, provider: settings.provider }, "the order's email-marketing settings");
  }

  /** The order's key, opened (the gateway sealed it for this service); one sealed for another key is left out. */
  private keyOf(sealed: string, about: object): string {
    try {
      return openedProviderKey(this.inbox, sealed);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      log.warn(
        { ...about, reason: err.message },
        "the order's email-marketing key could not be opened: left out",
      );
      return '';
    }
  }
}
