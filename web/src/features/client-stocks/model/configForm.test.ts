import type { ClientStockDto } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import { clientStockDto, without } from '@/test/fixtures';
import { changedConfigFields, clientSaveBody, configValuesOf, editableConfigFields } from './configForm';

/** A client stock as the gateway sends it to a user without ReplyToComment: the comment fields left out. */
function withoutCommentFields(): ClientStockDto {
  const stock = clientStockDto('ABC', {
    roles: ['ViewConfig'],
    confirmationEmail: 'a@x.com',
    sendPriceSensitiveAnnouncements: true,
  });
  return without(stock, 'moderatorEmail', 'companyLogoUrl', 'announcementCommentTemplate');
}

describe('the client Config form', () => {
  it('blanks the fields the stock came without, and never sends them', () => {
    const stock = withoutCommentFields();
    const values = configValuesOf(stock);
    expect(values).toMatchObject({
      confirmationEmail: 'a@x.com',
      sendPriceSensitiveAnnouncements: true,
      moderatorEmail: '',
      companyLogoUrl: '',
      announcementCommentTemplate: '',
    });
    const fields = editableConfigFields(stock.roles);
    expect(fields).not.toContain('moderatorEmail');
    const edited = { ...values, contactEmail: 'b@x.com', moderatorEmail: 'm@x.com' };
    const changed = changedConfigFields(values, edited, fields);
    expect(changed).toEqual(['contactEmail']);
    expect(clientSaveBody(stock.combinedTicker, edited, changed)).toEqual({
      combinedTicker: 'ABC:ASX',
      contactEmail: 'b@x.com',
    });
  });

  it('blanks absent switches as off', () => {
    const stock = without(clientStockDto('ABC'), 'autoSendAnnouncementEmail');
    expect(configValuesOf(stock).autoSendAnnouncementEmail).toBe(false);
  });
});
