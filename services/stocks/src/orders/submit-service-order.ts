import {
  DEFAULT_SERVICE_OPTION_GROUP,
  ErrorCode,
  missingOrderFieldMessages,
  RequestOf,
  ServiceOption,
  Topics,
  unknownOptionGroupMessage,
} from '@irp/proto';
import { AppError, createLogger, Outbox, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { ServiceOrdersRepository } from './service-orders.repository';
import { orderedOptionOf, toServiceOption, toServiceOrder, withoutSecrets } from './service-order-rules';

const log = createLogger('service-orders');

export const UNKNOWN_OPTION_MESSAGE = 'The chosen option is not offered any more: please choose another';

type OrderForm = RequestOf<typeof Topics.StocksSubmitServiceOrder>['form'];

/**
 * The public order form (spec section 2): the options of a group, and an order stored with
 * `service-order.submitted` in one transaction (the system settings' staff mail is sent from that event).
 */
@Injectable()
export class SubmitServiceOrder {
  constructor(
    private readonly orders: ServiceOrdersRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /**
   * A group's options; an empty group id gives the default group's (the form's /new-order). An unknown
   * group is NOT_FOUND: a stale or mistyped /new-order/{id} must not offer another group's prices.
   */
  async options(groupId: string): Promise<ServiceOption[]> {
    const named = groupId.trim();
    const options = await this.orders.optionsOf(named || DEFAULT_SERVICE_OPTION_GROUP);
    if (named && !options.length) throw new AppError(ErrorCode.NotFound, unknownOptionGroupMessage(named));
    return options.map(toServiceOption);
  }

  /** Stores the order (the gateway checked the form; checked again here, so no caller skips it). */
  async submit(form: OrderForm): Promise<string> {
    const missing = missingOrderFieldMessages(form);
    if (missing.length) throw new AppError(ErrorCode.BadRequest, missing.join('; '));
    return this.units.run(async (tx) => {
      const option = form.option ? await this.orders.option(form.option, tx) : null;
      if (form.option && !option) throw new AppError(ErrorCode.BadRequest, UNKNOWN_OPTION_MESSAGE);
      const order = await this.orders.insert(tx, {
        companyName: form.companyName.trim(),
        ticker: form.ticker.trim().toUpperCase(),
        reference: '',
        option: option ? orderedOptionOf(option) : null,
        authorisedBy: form.authorisedBy.trim(),
        website: form.website.trim(),
        address: form.address.trim(),
        contactName: form.contactName.trim(),
        contactPhone: form.contactPhone.trim(),
        contactEmail: form.contactEmail.trim(),
        abn: form.abn.trim(),
        listingDate: form.listingDate.trim(),
        confirmationEmail: form.confirmationEmail.trim(),
        sendPriceSensitiveAnnouncements: form.sendPriceSensitiveAnnouncements,
        sendNonPriceSensitiveAnnouncements: form.sendNonPriceSensitiveAnnouncements,
        autoSendAnnouncementEmail: form.autoSendAnnouncementEmail,
        autoSendNonPriceSensitiveAnnouncements: form.autoSendNonPriceSensitiveAnnouncements,
        emailMarketing: form.emailMarketing ?? null,
      });
      await this.outbox.add(tx, Topics.ServiceOrderSubmitted, order.id, {
        order: withoutSecrets(toServiceOrder(order, null)),
      });
      log.info({ serviceOrderId: order.id, ticker: order.ticker }, 'service order submitted');
      return order.id;
    });
  }
}
