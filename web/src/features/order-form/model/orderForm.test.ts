import { describe, expect, it } from 'vitest';
import { defaultOptionId, EMPTY_ORDER_FORM, orderBody, requiredMessages } from './orderForm';

const option = (id: string, isDefault: boolean) => ({
  id,
  groupId: 'default',
  name: id,
  price: 1800,
  lineItems: [],
  isDefault,
});

describe('order form model', () => {
  it('lists the nine required messages of an empty form', () => {
    expect(requiredMessages(EMPTY_ORDER_FORM)).toHaveLength(9);
  });

  it("preselects the group's default option", () => {
    expect(defaultOptionId([option('a', false), option('b', true)])).toBe('b');
    expect(defaultOptionId([option('a', false)])).toBe('a');
    expect(defaultOptionId([])).toBeNull();
  });

  it('sends the flags of the auto-send choice (spec section 4)', () => {
    expect(orderBody(EMPTY_ORDER_FORM, 'b', 'all', null)).toMatchObject({
      option: 'b',
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: true,
      emailMarketing: null,
    });
    expect(orderBody(EMPTY_ORDER_FORM, null, 'price_sensitive_only', null)).toMatchObject({
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: false,
    });
    expect(orderBody(EMPTY_ORDER_FORM, null, null, null)).toMatchObject({
      sendPriceSensitiveAnnouncements: false,
      autoSendAnnouncementEmail: false,
    });
  });
});
