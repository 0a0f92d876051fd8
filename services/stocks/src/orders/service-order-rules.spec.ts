import { missingOrderFieldMessages, optionCardTitle, REQUIRED_ORDER_FIELDS, sendFlagsOf } from '@irp/proto';
import type { ServiceOptionEntity } from './service-option.entity';
import type { ServiceOrderEntity } from './service-order.entity';
import {
  centsOf,
  dollarsOf,
  orderedOptionOf,
  stockFieldsOfOrder,
  toServiceOption,
  toServiceOrder,
  withoutSecrets,
} from './service-order-rules';

const option: ServiceOptionEntity = {
  id: '0b8f0b4e-4d8f-4f57-9f0f-4b1b8f0b4e4d',
  groupId: 'default',
  position: 1,
  name: 'Standard',
  priceCents: '180000',
  lineItems: ['Widgets', 'Emails'],
  isDefault: true,
};

const order: ServiceOrderEntity = {
  id: '7d0c2c1e-2f0a-4c1e-8f0a-2c1e2f0a4c1e',
  timestamp: new Date('2026-11-20T01:02:03Z'),
  companyName: 'Kestrel Copper Limited',
  ticker: 'KCU',
  reference: '',
  option: { name: 'Standard', priceCents: 180000, lineItems: ['Widgets'] },
  authorisedBy: 'Priya',
  website: 'kestrel.example.com',
  address: '190 St Georges Terrace, Perth WA 6000',
  contactName: 'Priya',
  contactPhone: '08 9322 4410',
  contactEmail: 'priya@kestrel.example.com',
  abn: '51 824 753 556',
  listingDate: '',
  confirmationEmail: 'ir@kestrel.example.com',
  sendPriceSensitiveAnnouncements: true,
  sendNonPriceSensitiveAnnouncements: true,
  autoSendAnnouncementEmail: true,
  autoSendNonPriceSensitiveAnnouncements: false,
  emailMarketing: null,
  stockId: null,
  createdAt: null,
};

describe('service order rules', () => {
  it('lists every missing required field with its spec message, in the form order', () => {
    expect(missingOrderFieldMessages({})).toEqual([
      'Company Name Required',
      'Ticker/ASX Code Required',
      'Website Required',
      'Address Required',
      'Contact Name Required',
      'Contact Phone Required',
      'Contact Email Required',
      'ABN Required',
      'Authorised By Required',
    ]);
    const full = Object.fromEntries(REQUIRED_ORDER_FIELDS.map(([f]) => [f, 'x']));
    expect(missingOrderFieldMessages(full)).toEqual([]);
    // Blank is missing; no format check beyond presence.
    expect(missingOrderFieldMessages({ ...full, abn: '  ', contactEmail: 'not an email' })).toEqual([
      'ABN Required',
    ]);
  });

  it('sets the send flags as the auto-send radio says (spec section 4)', () => {
    expect(sendFlagsOf('all')).toEqual({
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: true,
    });
    expect(sendFlagsOf('price_sensitive_only')).toMatchObject({
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: false,
    });
    expect(sendFlagsOf('manual')).toMatchObject({
      sendPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: false,
      autoSendNonPriceSensitiveAnnouncements: false,
    });
  });

  it('shows prices in whole dollars and titles the cards', () => {
    expect(dollarsOf('180000')).toBe(1800);
    expect(centsOf(1800)).toBe(180000);
    expect(toServiceOption(option)).toEqual({
      id: option.id,
      groupId: 'default',
      name: 'Standard',
      price: 1800,
      lineItems: ['Widgets', 'Emails'],
      isDefault: true,
    });
    expect(orderedOptionOf(option)).toEqual({
      name: 'Standard',
      priceCents: 180000,
      lineItems: ['Widgets', 'Emails'],
    });
    expect(optionCardTitle(1, 1800)).toBe('OPTION 1 - $1,800 + GST annual subscription');
  });

  it('reads an order with its option in dollars and created only with a stock', () => {
    expect(toServiceOrder(order, 'KCU:ASX')).toMatchObject({
      timestamp: '2026-11-20T01:02:03.000Z',
      option: { name: 'Standard', price: 1800, lineItems: ['Widgets'] },
      isCreated: false,
      combinedTicker: null,
    });
    const created = toServiceOrder({ ...order, stockId: 'f0f0f0f0-f0f0-4f0f-8f0f-f0f0f0f0f0f0' }, 'KCU:ASX');
    expect(created).toMatchObject({ isCreated: true, combinedTicker: 'KCU:ASX' });
  });

  it("makes the stock with the order's settings, the staff ticker and the reference", () => {
    expect(stockFieldsOfOrder(order, 'kcu', 'KCU-2026')).toEqual({
      ticker: 'kcu',
      exchange: 'ASX',
      companyName: 'Kestrel Copper Limited',
      websiteUrl: 'kestrel.example.com',
      contactEmail: 'priya@kestrel.example.com',
      confirmationEmail: 'ir@kestrel.example.com',
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: false,
      accountingReference: 'KCU-2026',
    });
  });

  it('keeps the email-marketing API key out of what leaves the service in events', () => {
    const emailMarketing = {
      service: 'mailchimp' as const,
      listId: 'l1',
      apiKey: 'secret-us1',
      templateId: '',
      replyTo: '',
      fromName: '',
      clientId: '',
    };
    const out = withoutSecrets(toServiceOrder({ ...order, emailMarketing }, null));
    expect(out.emailMarketing).toEqual({ ...emailMarketing, apiKey: '(given)' });
    expect(withoutSecrets(toServiceOrder(order, null)).emailMarketing).toBeNull();
  });
});
