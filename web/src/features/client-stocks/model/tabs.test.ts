import { describe, expect, it } from 'vitest';
import { CLIENT_STOCK_FIELDS, REPLY_TO_COMMENT_FIELDS, STANDARD_AUTO_SEND_FILTER } from '@irp/proto';
import {
  changedConfigFields,
  clientSaveBody,
  editableConfigFields,
  type ClientConfigValues,
} from './configForm';
import { activeTabFor, allowedTabs, tabKeyOf } from './tabs';

const ALL_ROLES = ['ViewConfig', 'EditAnnouncements', 'EditMailchimp', 'ReplyToComment', 'Invoicing'];

describe('client stock tabs', () => {
  it('shows each tab only with its role', () => {
    expect(allowedTabs(ALL_ROLES).map((t) => t.title)).toEqual([
      'Config',
      'Announcements',
      'Email marketing',
      'Comments',
    ]);
    expect(allowedTabs(['ViewConfig']).map((t) => t.title)).toEqual(['Config']);
    expect(allowedTabs(['EditMailchimp', 'Invoicing']).map((t) => t.title)).toEqual(['Email marketing']);
    expect(allowedTabs(['SendMailchimp', 'TestSendAnnouncement', 'Invoicing'])).toEqual([]);
  });

  it('opens the tab from ?tab= when allowed, else Config, else the first allowed', () => {
    expect(activeTabFor(ALL_ROLES, 'comments')).toBe('comments');
    expect(activeTabFor(ALL_ROLES, 'Announcements')).toBe('announcements');
    expect(activeTabFor(ALL_ROLES, 'mailchimp')).toBe('email-marketing');
    expect(activeTabFor(ALL_ROLES, null)).toBe('config');
    expect(activeTabFor(ALL_ROLES, 'nonsense')).toBe('config');
    expect(activeTabFor(['ViewConfig'], 'comments')).toBe('config');
    expect(activeTabFor(['EditAnnouncements', 'ReplyToComment'], null)).toBe('announcements');
    expect(activeTabFor(['EditAnnouncements', 'ReplyToComment'], 'config')).toBe('announcements');
    expect(activeTabFor(['Invoicing'], 'config')).toBeUndefined();
  });

  it('reads tab names case-insensitively', () => {
    expect(tabKeyOf('CONFIG')).toBe('config');
    expect(tabKeyOf('Email marketing')).toBe('email-marketing');
    expect(tabKeyOf('EmailMarketing')).toBe('email-marketing');
    expect(tabKeyOf('')).toBeUndefined();
  });
});

describe('the Config save', () => {
  const values: ClientConfigValues = {
    companyName: 'ABC Ltd',
    websiteUrl: 'abc.com.au',
    confirmationEmail: 'a@x.com',
    contactEmail: '',
    announcementNotificationEmails: '',
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: false,
    autoSendAnnouncementEmail: false,
    autoSendNonPriceSensitiveAnnouncements: false,
    autoSendFilter: STANDARD_AUTO_SEND_FILTER,
    moderatorEmail: 'mod@x.com',
    companyLogoUrl: '',
    announcementCommentTemplate: '',
  };

  it('edits the client subset, plus the comment fields only with ReplyToComment', () => {
    expect(editableConfigFields(['ViewConfig'])).toEqual([...CLIENT_STOCK_FIELDS]);
    expect(editableConfigFields(['ViewConfig', 'ReplyToComment'])).toEqual([
      ...CLIENT_STOCK_FIELDS,
      ...REPLY_TO_COMMENT_FIELDS,
    ]);
  });

  it('sends the ticker and only the editable fields', () => {
    const body = clientSaveBody('ABC:ASX', values, editableConfigFields(['ViewConfig']));
    expect(Object.keys(body).sort()).toEqual(['combinedTicker', ...CLIENT_STOCK_FIELDS].sort());
    expect(body).not.toHaveProperty('moderatorEmail');
    expect(clientSaveBody('ABC:ASX', values, editableConfigFields(['ReplyToComment']))).toHaveProperty(
      'moderatorEmail',
      'mod@x.com',
    );
  });

  it('finds what changed among the editable fields', () => {
    const fields = editableConfigFields(['ViewConfig']);
    expect(changedConfigFields(values, { ...values }, fields)).toEqual([]);
    expect(
      changedConfigFields(values, { ...values, websiteUrl: 'new.com', moderatorEmail: 'x' }, fields),
    ).toEqual(['websiteUrl']);
  });
});
