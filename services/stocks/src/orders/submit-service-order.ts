import { ErrorCode, missingOrderFieldMessages, RequestOf, Topics } from '@irp/proto';
import { AppError, createLogger, Outbox, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { ServiceOrdersRepository } from './service-orders.repository';
import { orderedOptionOf, toServiceOrder, withoutSecrets } from './service-order-rules';

const log = createLogger('service-orders');

export const UNKNOWN_OPTION_MESSAGE = 'The chosen option is not offered any more: please choose another';

type OrderForm = RequestOf<typeof Topics.StocksSubmitServiceOrder>['form'];

/**
 * The public order form (spec section 2; its options: option-groups.ts): an order stored with
 * `service-order.submitted` in one transaction (the system settings' staff mail is sent from that event).
 */
@Injectable()
export class SubmitServiceOrder {
  constructor(
    private readonly orders: ServiceOrdersRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** Stores the order (the gateway checked the form; checked again here, so no caller skips it). */
  async submit(form: OrderForm): Promise<string> {
    const missing = missingOrderFieldMessages(form);
    if (missing.length) throw new AppError(ErrorCode.BadRequest, missing.join('; '));
    return this.units.run(async (tx) => {
      // An option of an archived group is no longer offered (the form was open before it was archived).
      const option = form.option ? await this.orders.offeredOption(form.option, tx) : null;
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
